package openai_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmfs/llmfs"
	llmfsopenai "github.com/llmfs/llmfs/adapters/openai"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// The agent loop on the Responses API: llmfs's agentool tools and the hosted apply_patch
// tool on an in-memory workspace. A fake API (httptest) stands in for OpenAI's: it asks
// for a file, then for a patch, then answers; drop option.WithBaseURL to talk to OpenAI.
func Example() {
	turn := 0
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		turn++
		var output string
		switch turn {
		case 1:
			output = `{"type":"apply_patch_call","id":"ap_1","call_id":"call_1","status":"completed",` +
				`"operation":{"type":"create_file","path":"hello.txt","diff":"+hello\n+world\n"}}`
		case 2:
			output = `{"type":"function_call","id":"fc_1","call_id":"call_2","name":"file_read",` +
				`"arguments":"{\"path\":\"hello.txt\"}","status":"completed"}`
		default:
			output = `{"type":"message","id":"msg_1","role":"assistant","status":"completed",` +
				`"content":[{"type":"output_text","text":"hello.txt says hello.","annotations":[]}]}`
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"resp_`+fmt.Sprint(turn)+`","object":"response","created_at":1,"status":"completed",`+
			`"model":"gpt-5","output":[`+output+`],"parallel_tool_calls":true,"tool_choice":"auto","tools":[]}`)
	}))
	defer api.Close()

	ctx := context.Background()
	ws := llmfs.New(mem.New(), nil)
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		log.Fatal(err)
	}
	fileTools, err := llmfsopenai.ResponsesTools(tb)
	if err != nil {
		log.Fatal(err)
	}
	dispatch := llmfsopenai.NewDispatcher(tb)
	client := sdk.NewClient(option.WithBaseURL(api.URL+"/v1"), option.WithAPIKey("test"))
	params := responses.ResponseNewParams{
		Model: "gpt-5",
		Input: responses.ResponseNewParamsInputUnion{OfString: sdk.String("Create hello.txt and read it back")},
		Tools: append(fileTools, llmfsopenai.ApplyPatchTool()),
	}
	for {
		resp, err := client.Responses.New(ctx, params)
		if err != nil {
			log.Fatal(err)
		}
		outputs := dispatch.ResponsesOutputs(ctx, resp.Output)
		if len(outputs) == 0 {
			fmt.Println(resp.OutputText())
			break
		}
		for _, o := range outputs {
			if o.OfApplyPatchCallOutput != nil {
				fmt.Println("apply_patch:", o.OfApplyPatchCallOutput.Status, o.OfApplyPatchCallOutput.Output.Value)
			}
			if o.OfFunctionCallOutput != nil {
				fmt.Println("file_read:", strings.TrimSpace(o.OfFunctionCallOutput.Output.OfString.Value))
			}
		}
		params.PreviousResponseID = sdk.String(resp.ID)
		params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: outputs}
	}
	// Output:
	// apply_patch: completed Created hello.txt
	// file_read: {"content":"hello\nworld\n","total_lines":2}
	// hello.txt says hello.
}
