package eino_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/llmfs/llmfs"
	llmfseino "github.com/llmfs/llmfs/adapters/eino"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// The agent loop with Eino's ToolsNode and llmfs's agentool tools on an in-memory
// workspace. Eino's core has no model client of its own (eino-ext has them), so the
// "model" here is a fake endpoint (httptest) that speaks Eino's schema.Message as JSON:
// it asks for a write, then answers. With eino-ext, a ChatModel's Generate takes its place.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reply := schema.AssistantMessage("Wrote hello.txt.", nil)
		if !strings.Contains(string(body), `"role":"tool"`) {
			reply = schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Type: "function",
				Function: schema.FunctionCall{Name: "file_write", Arguments: `{"path":"hello.txt","content":"hello\n"}`}}})
		}
		json.NewEncoder(w).Encode(reply)
	}))
	defer api.Close()

	ctx := context.Background()
	ws := llmfs.New(mem.New(), nil)
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		log.Fatal(err)
	}
	fileTools, err := llmfseino.Tools(tb)
	if err != nil {
		log.Fatal(err)
	}
	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: fileTools})
	if err != nil {
		log.Fatal(err)
	}
	history := []*schema.Message{schema.UserMessage("Write hello.txt")}
	for {
		body, _ := json.Marshal(history)
		resp, err := http.Post(api.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			log.Fatal(err)
		}
		var msg schema.Message
		err = json.NewDecoder(resp.Body).Decode(&msg)
		resp.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		history = append(history, &msg)
		if len(msg.ToolCalls) == 0 {
			fmt.Println(msg.Content)
			break
		}
		results, err := node.Invoke(ctx, &msg)
		if err != nil {
			log.Fatal(err)
		}
		history = append(history, results...)
	}
	data, _ := ws.ReadFile(ctx, "/hello.txt", 1<<20)
	fmt.Print(string(data))
	// Output:
	// Wrote hello.txt.
	// hello
}
