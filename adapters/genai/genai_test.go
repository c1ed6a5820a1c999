package genai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	sdk "google.golang.org/genai"

	"github.com/llmfs/llmfs"
	llmfsgenai "github.com/llmfs/llmfs/adapters/genai"
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

// fakeAPI is the Gemini API's generateContent at the HTTP boundary.
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
		if !strings.HasSuffix(r.URL.Path, ":generateContent") || n >= len(replies) {
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

func (f *fakeAPI) client(t *testing.T) *sdk.Client {
	t.Helper()
	c, err := sdk.NewClient(context.Background(), &sdk.ClientConfig{
		APIKey: "test-key", Backend: sdk.BackendGeminiAPI,
		HTTPOptions: sdk.HTTPOptions{BaseURL: f.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
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

func callsReply(calls ...string) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, `{"functionCall":`+c+`}`)
	}
	return `{"candidates":[{"content":{"role":"model","parts":[` + strings.Join(parts, ",") + `]},"finishReason":"STOP"}]}`
}

const doneReply = `{"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]},"finishReason":"STOP"}]}`

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// Every definition of every dialect, sent as the SDK sends it, keeps its name,
// description and JSON Schema.
func TestDefinitionsRoundTrip(t *testing.T) {
	ws := newWorkspace(t, nil)
	for _, d := range tools.Dialects {
		tb, err := tools.NewWithOptions(ws, d, &tools.Options{History: true})
		if err != nil {
			t.Fatal(err)
		}
		tool, err := llmfsgenai.Tool(tb)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(tool)
		if err != nil {
			t.Fatal(err)
		}
		var sent struct {
			FunctionDeclarations []struct {
				Name                 string          `json:"name"`
				Description          string          `json:"description"`
				ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		}
		if err := json.Unmarshal(b, &sent); err != nil {
			t.Fatal(err)
		}
		defs := tb.Definitions()
		if len(sent.FunctionDeclarations) != len(defs) {
			t.Fatalf("%s: %d declarations for %d tools", d, len(sent.FunctionDeclarations), len(defs))
		}
		for i, f := range sent.FunctionDeclarations {
			if f.Name != defs[i].Name || f.Description != defs[i].Description ||
				!reflect.DeepEqual(decode(t, f.ParametersJSONSchema), decode(t, defs[i].InputSchema)) {
				t.Errorf("%s/%s sent as %s", d, defs[i].Name, b)
			}
		}
	}
}

// read, edit, patch and a failure through GenerateContent and Responses.
func TestGenerateContentLoop(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"/a.txt": "alpha\nbeta\n", "/b.txt": "one\ntwo\n"})
	tb, err := tools.New(ws, tools.Gemini)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t,
		callsReply(
			`{"id":"c1","name":"read_file","args":{"file_path":"a.txt"}}`,
			`{"id":"c2","name":"replace","args":{"file_path":"a.txt","old_string":"beta","new_string":"gamma"}}`,
			`{"id":"c3","name":"patch","args":{"patch":"*** Begin Patch\n*** Update File: b.txt\n one\n-two\n+three\n*** End Patch"}}`,
			`{"id":"c4","name":"read_file","args":{"file_path":"missing.txt"}}`,
		),
		doneReply,
	)
	client := api.client(t)
	tool, err := llmfsgenai.Tool(tb)
	if err != nil {
		t.Fatal(err)
	}
	config := &sdk.GenerateContentConfig{Tools: []*sdk.Tool{tool}}
	contents := []*sdk.Content{sdk.NewContentFromText("change the files", sdk.RoleUser)}
	ctx := context.Background()
	for range 3 {
		resp, err := client.Models.GenerateContent(ctx, "gemini-test", contents, config)
		if err != nil {
			t.Fatal(err)
		}
		calls := resp.FunctionCalls()
		if len(calls) == 0 {
			break
		}
		contents = append(contents, resp.Candidates[0].Content,
			sdk.NewContentFromParts(llmfsgenai.Responses(ctx, tb, calls), sdk.RoleUser))
	}
	var req struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse struct {
					ID       string         `json:"id"`
					Name     string         `json:"name"`
					Response map[string]any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(api.body(t, 1), &req); err != nil {
		t.Fatal(err)
	}
	parts := req.Contents[len(req.Contents)-1].Parts
	if len(parts) != 4 {
		t.Fatalf("function responses: %+v", parts)
	}
	for i, p := range parts[:3] {
		if _, ok := p.FunctionResponse.Response["output"]; !ok {
			t.Errorf("response %d: %+v, want an output", i, p.FunctionResponse)
		}
	}
	if out, _ := json.Marshal(parts[0].FunctionResponse.Response); !strings.Contains(string(out), "alpha") || parts[0].FunctionResponse.ID != "c1" {
		t.Errorf("read: %s", out)
	}
	if e, _ := parts[3].FunctionResponse.Response["error"].(map[string]any); e["code"] != "FILE_NOT_FOUND" {
		t.Errorf("reading a missing file: %+v", parts[3].FunctionResponse)
	}
	if got := readFile(t, ws, "/a.txt"); got != "alpha\ngamma\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := readFile(t, ws, "/b.txt"); got != "one\nthree\n" {
		t.Errorf("b.txt = %q", got)
	}
}

// An image read comes back as an inline part beside the output.
func TestImagePart(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82"
	ws := newWorkspace(t, map[string]string{"/dot.png": png})
	tb, err := tools.New(ws, tools.Gemini)
	if err != nil {
		t.Fatal(err)
	}
	resp := llmfsgenai.Call(context.Background(), tb, &sdk.FunctionCall{Name: "read_file", Args: map[string]any{"file_path": "dot.png"}})
	if len(resp.Parts) != 1 || resp.Parts[0].InlineData.MIMEType != "image/png" || string(resp.Parts[0].InlineData.Data) != png {
		t.Fatalf("parts: %+v (response %+v)", resp.Parts, resp.Response)
	}
	if out, _ := json.Marshal(resp.Response); bytes.Contains(out, []byte("iVBOR")) {
		t.Errorf("the output holds the base64 too: %s", out)
	}
}

// The JSON the SDK sends generateContent with the gemini dialect's tools.
func TestGoldenRequest(t *testing.T) {
	tb, err := tools.New(newWorkspace(t, nil), tools.Gemini)
	if err != nil {
		t.Fatal(err)
	}
	tool, err := llmfsgenai.Tool(tb)
	if err != nil {
		t.Fatal(err)
	}
	api := newFakeAPI(t, doneReply)
	client := api.client(t)
	if _, err := client.Models.GenerateContent(context.Background(), "gemini-test",
		sdk.Text("hi"), &sdk.GenerateContentConfig{Tools: []*sdk.Tool{tool}}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, api.body(t, 0), "", "  "); err != nil {
		t.Fatal(err)
	}
	buf.WriteByte('\n')
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
