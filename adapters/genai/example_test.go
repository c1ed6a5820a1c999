package genai_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	sdk "google.golang.org/genai"

	"github.com/llmfs/llmfs"
	llmfsgenai "github.com/llmfs/llmfs/adapters/genai"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// The agent loop with the Gen AI SDK: the gemini dialect's tools on an in-memory
// workspace. A fake Gemini API (httptest) stands in for Google's: it asks for a write,
// then answers; drop HTTPOptions.BaseURL to talk to Gemini.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if !strings.Contains(string(body), "functionResponse") {
			io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":`+
				`{"name":"write_file","args":{"file_path":"hello.txt","content":"hello\n"}}}]},"finishReason":"STOP"}]}`)
			return
		}
		io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"Wrote hello.txt."}]},"finishReason":"STOP"}]}`)
	}))
	defer api.Close()

	ctx := context.Background()
	ws := llmfs.New(mem.New(), nil)
	tb, err := tools.New(ws, tools.Gemini)
	if err != nil {
		log.Fatal(err)
	}
	tool, err := llmfsgenai.Tool(tb)
	if err != nil {
		log.Fatal(err)
	}
	client, err := sdk.NewClient(ctx, &sdk.ClientConfig{
		APIKey: "test", Backend: sdk.BackendGeminiAPI, HTTPOptions: sdk.HTTPOptions{BaseURL: api.URL},
	})
	if err != nil {
		log.Fatal(err)
	}
	config := &sdk.GenerateContentConfig{Tools: []*sdk.Tool{tool}}
	contents := []*sdk.Content{sdk.NewContentFromText("Write hello.txt", sdk.RoleUser)}
	for {
		resp, err := client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, config)
		if err != nil {
			log.Fatal(err)
		}
		calls := resp.FunctionCalls()
		if len(calls) == 0 {
			fmt.Println(resp.Text())
			break
		}
		contents = append(contents, resp.Candidates[0].Content,
			sdk.NewContentFromParts(llmfsgenai.Responses(ctx, tb, calls), sdk.RoleUser))
	}
	data, _ := ws.ReadFile(ctx, "/hello.txt", 1<<20)
	fmt.Print(string(data))
	// Output:
	// Wrote hello.txt.
	// hello
}
