package genkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	gk "github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/compat_oai"

	"github.com/llmfs/llmfs"
	llmfsgenkit "github.com/llmfs/llmfs/adapters/genkit"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func newWorkspace(t *testing.T, files map[string]string) *llmfs.Workspace {
	t.Helper()
	ws := llmfs.New(mem.New(), nil)
	for name, content := range files {
		if _, err := ws.Write(context.Background(), name, content, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func readFile(t *testing.T, ws *llmfs.Workspace, name string) string {
	t.Helper()
	b, err := ws.ReadFile(context.Background(), name, 1<<20)
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	return string(b)
}

// fakeAPI is an OpenAI-compatible chat completions endpoint at the HTTP boundary, for
// Genkit's compat_oai plugin.
type fakeAPI struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []json.RawMessage
}

func newFakeAPI(t *testing.T, replies ...string) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := len(f.bodies)
		f.bodies = append(f.bodies, body)
		f.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || n >= len(replies) {
			t.Errorf("unexpected request %d: %s %s", n, r.Method, r.URL.Path)
			http.Error(w, "unexpected", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, replies[n])
	}))
	t.Cleanup(f.Close)
	return f
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

func chatReply(calls ...[2]string) string {
	var tcs []string
	for i, c := range calls {
		args, _ := json.Marshal(c[1])
		tcs = append(tcs, fmt.Sprintf(`{"id":"call_%d","type":"function","function":{"name":%q,"arguments":%s}}`, i, c[0], args))
	}
	return `{"id":"chat_1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"tool_calls",` +
		`"message":{"role":"assistant","content":null,"tool_calls":[` + strings.Join(tcs, ",") + `]}}]}`
}

const chatDone = `{"id":"chat_2","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"done"}}]}`

func setup(t *testing.T, api *fakeAPI) (*gk.Genkit, ai.Model) {
	t.Helper()
	oai := &compat_oai.OpenAICompatible{Provider: "fake", APIKey: "test-key", BaseURL: api.URL + "/v1"}
	g := gk.Init(context.Background(), gk.WithPlugins(oai))
	model := oai.DefineModel("fake", "gpt-test", ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true}})
	return g, model
}

// Every definition of every dialect keeps its name, description and JSON Schema in
// Genkit's ToolDefinition.
func TestDefinitionsRoundTrip(t *testing.T) {
	ws := newWorkspace(t, nil)
	for _, d := range tools.Dialects {
		tb, err := tools.NewWithOptions(ws, d, &tools.Options{History: true})
		if err != nil {
			t.Fatal(err)
		}
		ts, err := llmfsgenkit.Tools(tb)
		if err != nil {
			t.Fatal(err)
		}
		for i, def := range tb.Definitions() {
			td := ts[i].Definition()
			sent, _ := json.Marshal(td.InputSchema)
			var got, want any
			_ = json.Unmarshal(sent, &got)
			_ = json.Unmarshal(def.InputSchema, &want)
			if td.Name != def.Name || td.Description != def.Description || !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: %s", d, def.Name, sent)
			}
		}
	}
}

// read, edit, patch and a failure through genkit.Generate with an OpenAI-compatible
// model at the HTTP boundary.
func TestGenerate(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"/a.txt": "alpha\nbeta\n", "/b.txt": "one\ntwo\n"})
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t,
		chatReply(
			[2]string{"file_read", `{"path":"a.txt"}`},
			[2]string{"file_edit", `{"path":"a.txt","old_text":"beta","new_text":"gamma"}`},
			[2]string{"patch", `{"patch":"*** Begin Patch\n*** Update File: b.txt\n one\n-two\n+three\n*** End Patch"}`},
			[2]string{"file_read", `{"path":"missing.txt"}`},
		),
		chatDone,
	)
	g, model := setup(t, api)
	ts, err := llmfsgenkit.Define(g, tb)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := gk.Generate(context.Background(), g, ai.WithModel(model), ai.WithPrompt("change the files"), ai.WithTools(llmfsgenkit.Refs(ts)...))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text() != "done" {
		t.Errorf("text = %q", resp.Text())
	}
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    any    `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(api.body(t, 1), &req); err != nil {
		t.Fatal(err)
	}
	// Genkit runs the calls side by side: the answers are found by call id.
	toolMsgs := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			b, _ := json.Marshal(m.Content)
			toolMsgs[m.ToolCallID] = string(b)
		}
	}
	if len(toolMsgs) != 4 || !strings.Contains(toolMsgs["call_0"], "alpha") || !strings.Contains(toolMsgs["call_3"], "FILE_NOT_FOUND") ||
		!strings.Contains(toolMsgs["call_1"], "replacements") || !strings.Contains(toolMsgs["call_2"], "v4a") {
		t.Errorf("tool messages: %q", toolMsgs)
	}
	if got := readFile(t, ws, "/a.txt"); got != "alpha\ngamma\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := readFile(t, ws, "/b.txt"); got != "one\nthree\n" {
		t.Errorf("b.txt = %q", got)
	}
}

// The JSON Genkit's OpenAI-compatible model sends with the agentool tools.
func TestGoldenRequest(t *testing.T) {
	tb, err := tools.New(newWorkspace(t, nil), tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t, chatDone)
	g, model := setup(t, api)
	ts, err := llmfsgenkit.Define(g, tb)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gk.Generate(context.Background(), g, ai.WithModel(model), ai.WithPrompt("hi"), ai.WithTools(llmfsgenkit.Refs(ts)...)); err != nil {
		t.Fatal(err)
	}
	// Genkit sends the tools in no fixed order: they are compared sorted by name.
	var body map[string]any
	if err := json.Unmarshal(api.body(t, 0), &body); err != nil {
		t.Fatal(err)
	}
	list, _ := body["tools"].([]any)
	name := func(v any) string {
		f, _ := v.(map[string]any)["function"].(map[string]any)
		s, _ := f["name"].(string)
		return s
	}
	sort.Slice(list, func(i, j int) bool { return name(list[i]) < name(list[j]) })
	out, err := json.MarshalIndent(body, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	buf := bytes.NewBuffer(append(out, '\n'))
	path := filepath.Join("testdata", "request.json")
	if *update {
		_ = os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the request differs from %s (go test -update rewrites it):\n%s", path, buf.Bytes())
	}
}
