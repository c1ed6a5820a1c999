package anthropic_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// toolUse is one tool call a scripted assistant turn makes.
type toolUse struct {
	name  string
	input string // JSON
}

// fakeAPI is the Messages API at the HTTP boundary: each POST gets the next scripted
// turn (tool calls, then a final text), and every request body is kept.
type fakeAPI struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []json.RawMessage
}

func newFakeAPI(t *testing.T, turns ...[]toolUse) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := len(f.bodies)
		f.bodies = append(f.bodies, body)
		f.mu.Unlock()
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.Error(w, "unexpected", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if n >= len(turns) {
			fmt.Fprintf(w, `{"id":"msg_%d","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, n)
			return
		}
		var blocks []string
		for i, u := range turns[n] {
			blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d_%d","name":%q,"input":%s}`, n, i, u.name, u.input))
		}
		fmt.Fprintf(w, `{"id":"msg_%d","type":"message","role":"assistant","model":"m","content":[%s],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, n, strings.Join(blocks, ","))
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) client() sdk.Client {
	return sdk.NewClient(option.WithBaseURL(f.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

func (f *fakeAPI) body(t *testing.T, i int) json.RawMessage {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.bodies) {
		t.Fatalf("the API got %d requests, want more than %d", len(f.bodies), i)
	}
	return f.bodies[i]
}

// toolResult is a tool_result block as the runner sends it back.
type toolResult struct {
	ToolUseID string `json:"tool_use_id"`
	IsError   bool   `json:"is_error"`
	Content   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// results returns the tool results of the last user message of request i, in order.
func (f *fakeAPI) results(t *testing.T, i int) []toolResult {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(f.body(t, i), &req); err != nil {
		t.Fatal(err)
	}
	last := req.Messages[len(req.Messages)-1]
	var out []toolResult
	for _, c := range last.Content {
		var r toolResult
		if err := json.Unmarshal(c, &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
