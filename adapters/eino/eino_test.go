package eino_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk/filesystem"
	fsmw "github.com/cloudwego/eino/adk/middlewares/filesystem"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/llmfs/llmfs"
	llmfseino "github.com/llmfs/llmfs/adapters/eino"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

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

func code(err error) llmfs.Code {
	var e *llmfs.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// The Backend contract, method by method, as Eino's in-memory backend behaves.
func TestBackend(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t, map[string]string{"/src/a.go": "package a\n\nfunc A() {}\n", "/notes.txt": "a.b\naxb\n"})
	b := llmfseino.NewBackend(ws)

	got, err := b.Read(ctx, &filesystem.ReadRequest{FilePath: "/src/a.go", Offset: 2, Limit: 1})
	if err != nil || got != "     3\tfunc A() {}" {
		t.Errorf("Read offset 2 limit 1 = %q, %v", got, err)
	}
	if got, err := b.Read(ctx, &filesystem.ReadRequest{FilePath: "/src/a.go"}); err != nil || !strings.HasPrefix(got, "     1\tpackage a\n     2\t\n") {
		t.Errorf("Read = %q, %v", got, err)
	}
	if got, err := b.Read(ctx, &filesystem.ReadRequest{FilePath: "/src/a.go", Offset: 10}); err != nil || got != "" {
		t.Errorf("Read past the end = %q, %v", got, err)
	}
	if _, err := b.Read(ctx, &filesystem.ReadRequest{FilePath: "/nope"}); code(err) != llmfs.CodeFileNotFound {
		t.Errorf("Read of a missing file: %v", err)
	}

	ls, err := b.LsInfo(ctx, &filesystem.LsInfoRequest{})
	if want := []filesystem.FileInfo{{Path: "/notes.txt"}, {Path: "/src/"}}; err != nil || !reflect.DeepEqual(ls, want) {
		t.Errorf("LsInfo = %v, %v", ls, err)
	}
	m, err := b.GrepRaw(ctx, &filesystem.GrepRequest{Pattern: "a.b"})
	if want := []filesystem.GrepMatch{{Path: "/notes.txt", Line: 1, Content: "a.b"}}; err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("GrepRaw of a literal = %v, %v", m, err)
	}
	g, err := b.GlobInfo(ctx, &filesystem.GlobInfoRequest{Pattern: "**/*.go"})
	if want := []filesystem.FileInfo{{Path: "/src/a.go"}}; err != nil || !reflect.DeepEqual(g, want) {
		t.Errorf("GlobInfo = %v, %v", g, err)
	}

	if err := b.Write(ctx, &filesystem.WriteRequest{FilePath: "/new/b.txt", Content: "hi\n"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Write(ctx, &filesystem.WriteRequest{FilePath: "/new/b.txt", Content: "again\n"}); code(err) != llmfs.CodeFileAlreadyExists {
		t.Errorf("Write over a file: %v, want FILE_ALREADY_EXISTS", err)
	}
	if err := b.Edit(ctx, &filesystem.EditRequest{FilePath: "/src/a.go", OldString: "func A() {}", NewString: "func A() int { return 1 }"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Edit(ctx, &filesystem.EditRequest{FilePath: "/src/a.go", OldString: "absent", NewString: "x"}); code(err) != llmfs.CodePatternNotFound {
		t.Errorf("Edit of a missing string: %v", err)
	}
	if got := readFile(t, ws, "/new/b.txt"); got != "hi\n" {
		t.Errorf("b.txt = %q", got)
	}
	if got := readFile(t, ws, "/src/a.go"); got != "package a\n\nfunc A() int { return 1 }\n" {
		t.Errorf("a.go = %q", got)
	}
}

// Eino's own filesystem middleware, its tools running on the backend: read, edit, and a
// failure.
func TestFilesystemMiddleware(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t, map[string]string{"/a.txt": "alpha\nbeta\n"})
	mw, err := fsmw.NewMiddleware(ctx, &fsmw.Config{Backend: llmfseino.NewBackend(ws), WithoutLargeToolResultOffloading: true})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]tool.InvokableTool{}
	for _, bt := range mw.AdditionalTools {
		info, _ := bt.Info(ctx)
		byName[info.Name] = bt.(tool.InvokableTool)
	}
	out, err := byName["read_file"].InvokableRun(ctx, `{"file_path":"/a.txt"}`)
	if err != nil || !strings.Contains(out, "alpha") {
		t.Errorf("read_file = %q, %v", out, err)
	}
	if _, err := byName["edit_file"].InvokableRun(ctx, `{"file_path":"/a.txt","old_string":"beta","new_string":"gamma"}`); err != nil {
		t.Errorf("edit_file: %v", err)
	}
	if _, err := byName["read_file"].InvokableRun(ctx, `{"file_path":"/missing.txt"}`); err == nil || !strings.Contains(err.Error(), "FILE_NOT_FOUND") {
		t.Errorf("read_file of a missing file: %v", err)
	}
	if got := readFile(t, ws, "/a.txt"); got != "alpha\ngamma\n" {
		t.Errorf("a.txt = %q", got)
	}
}

// Every definition of every dialect keeps its JSON Schema through Eino's ToolInfo, as the
// model components convert it.
func TestToolsRoundTrip(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t, nil)
	for _, d := range tools.Dialects {
		tb, err := tools.NewWithOptions(ws, d, &tools.Options{History: true})
		if err != nil {
			t.Fatal(err)
		}
		ts, err := llmfseino.Tools(tb)
		if err != nil {
			t.Fatal(err)
		}
		for i, def := range tb.Definitions() {
			info, err := ts[i].Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			js, err := info.ToJSONSchema()
			if err != nil {
				t.Fatal(err)
			}
			sent, _ := json.Marshal(js)
			var got, want any
			_ = json.Unmarshal(sent, &got)
			_ = json.Unmarshal(def.InputSchema, &want)
			// jsonschema.Schema drops an empty "required", which says the same as none.
			if m, ok := want.(map[string]any); ok {
				if r, ok := m["required"].([]any); ok && len(r) == 0 {
					delete(m, "required")
				}
			}
			if info.Name != def.Name || info.Desc != def.Description || !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: sent %s\nwant %s", d, def.Name, sent, def.InputSchema)
			}
		}
	}
}

// read, edit, patch and a failure through a compose.ToolsNode, Eino's executor of a
// model's tool calls.
func TestToolsNode(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t, map[string]string{"/a.txt": "alpha\nbeta\n", "/b.txt": "one\ntwo\n"})
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := llmfseino.Tools(tb)
	if err != nil {
		t.Fatal(err)
	}
	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: ts, ExecuteSequentially: true})
	if err != nil {
		t.Fatal(err)
	}
	call := func(id, name, args string) schema.ToolCall {
		return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
	}
	msgs, err := node.Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{
		call("1", "file_read", `{"path":"a.txt"}`),
		call("2", "file_edit", `{"path":"a.txt","old_text":"beta","new_text":"gamma"}`),
		call("3", "patch", `{"patch":"*** Begin Patch\n*** Update File: b.txt\n one\n-two\n+three\n*** End Patch"}`),
		call("4", "file_read", `{"path":"missing.txt"}`),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 || !strings.Contains(msgs[0].Content, "alpha") || msgs[0].ToolCallID != "1" {
		t.Fatalf("tool messages: %+v", msgs)
	}
	if !strings.Contains(msgs[3].Content, `"code":"FILE_NOT_FOUND"`) {
		t.Errorf("reading a missing file: %q", msgs[3].Content)
	}
	if got := readFile(t, ws, "/a.txt"); got != "alpha\ngamma\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := readFile(t, ws, "/b.txt"); got != "one\nthree\n" {
		t.Errorf("b.txt = %q", got)
	}
}
