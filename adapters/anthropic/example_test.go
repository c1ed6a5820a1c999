package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/llmfs/llmfs"
	llmfsanthropic "github.com/llmfs/llmfs/adapters/anthropic"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// The agent loop: the SDK's tool runner with llmfs's rtc tools on an in-memory workspace.
// A fake Messages API (httptest) stands in for Anthropic's: it asks for a write, then
// ends the turn; point option.WithBaseURL elsewhere, or drop it, to talk to Claude.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if !strings.Contains(string(body), `"tool_result"`) {
			io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[`+
				`{"type":"tool_use","id":"toolu_1","name":"write","input":{"path":"/hello.txt","content":"hello\n"}}],`+
				`"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`)
			return
		}
		io.WriteString(w, `{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[`+
			`{"type":"text","text":"Wrote /hello.txt."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer api.Close()

	ws := llmfs.New(mem.New(), nil)
	tb, err := tools.New(ws.With(llmfs.NewSession()), tools.RTC)
	if err != nil {
		log.Fatal(err)
	}
	fileTools, err := llmfsanthropic.Tools(tb)
	if err != nil {
		log.Fatal(err)
	}
	client := sdk.NewClient(option.WithBaseURL(api.URL), option.WithAPIKey("test"))
	runner := client.Beta.Messages.NewToolRunner(fileTools, sdk.BetaToolRunnerParams{
		BetaMessageNewParams: sdk.BetaMessageNewParams{
			Model:     "claude-sonnet-4-5",
			MaxTokens: 1024,
			Messages:  []sdk.BetaMessageParam{sdk.NewBetaUserMessage(sdk.NewBetaTextBlock("Write hello.txt"))},
		},
		DisableThread: true,
	})
	msg, err := runner.RunToCompletion(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	data, _ := ws.ReadFile(context.Background(), "/hello.txt", 1<<20)
	fmt.Print(msg.Content[0].Text, "\n", string(data))
	// Output:
	// Wrote /hello.txt.
	// hello
}
