package genkit_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/firebase/genkit/go/ai"
	gk "github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/compat_oai"

	"github.com/llmfs/llmfs"
	llmfsgenkit "github.com/llmfs/llmfs/adapters/genkit"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// The agent loop with genkit.Generate, which runs the tools itself: llmfs's agentool
// tools on an in-memory workspace, and an OpenAI-compatible model (Genkit's compat_oai
// plugin) whose API is faked with httptest: it asks for a write, then answers. Any
// Genkit model plugin takes its place.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if !strings.Contains(string(body), `"role":"tool"`) {
			io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-5","choices":[{"index":0,`+
				`"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1",`+
				`"type":"function","function":{"name":"file_write","arguments":"{\"path\":\"hello.txt\",\"content\":\"hello\\n\"}"}}]}}]}`)
			return
		}
		io.WriteString(w, `{"id":"c2","object":"chat.completion","created":1,"model":"gpt-5","choices":[{"index":0,`+
			`"finish_reason":"stop","message":{"role":"assistant","content":"Wrote hello.txt."}}]}`)
	}))
	defer api.Close()

	ctx := context.Background()
	oai := &compat_oai.OpenAICompatible{Provider: "openai", APIKey: "test", BaseURL: api.URL + "/v1"}
	g := gk.Init(ctx, gk.WithPlugins(oai))
	model := oai.DefineModel("openai", "gpt-5", ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true}})

	ws := llmfs.New(mem.New(), nil)
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		log.Fatal(err)
	}
	fileTools, err := llmfsgenkit.Define(g, tb)
	if err != nil {
		log.Fatal(err)
	}
	resp, err := gk.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("Write hello.txt"),
		ai.WithTools(llmfsgenkit.Refs(fileTools)...))
	if err != nil {
		log.Fatal(err)
	}
	data, _ := ws.ReadFile(ctx, "/hello.txt", 1<<20)
	fmt.Print(resp.Text(), "\n", string(data))
	// Output:
	// Wrote hello.txt.
	// hello
}
