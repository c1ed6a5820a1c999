//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

func names(defs []tools.Definition) []string {
	var out []string
	for _, d := range defs {
		out = append(out, d.Name)
	}
	return out
}

// TestRTCDefinitions: the rtc tools per mode, and remove never among them.
func TestRTCDefinitions(t *testing.T) {
	type test struct {
		mode llmfs.Mode
		want []string
	}
	for _, tc := range []test{
		{llmfs.Full, []string{"ls", "read", "write", "edit", "find", "grep", "patch"}},
		{llmfs.ReadWrite, []string{"ls", "read", "write", "edit", "find", "grep", "patch"}},
		{llmfs.ReadOnly, []string{"ls", "read", "find", "grep"}},
	} {
		defs, err := tools.Definitions(tools.RTC, tc.mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(defs); !slices.Equal(got, tc.want) {
			t.Errorf("Definitions(rtc, %s) = %v, want %v", tc.mode, got, tc.want)
		}
	}
	defs, _ := tools.Definitions(tools.RTC, llmfs.Full)
	for _, d := range defs {
		var s struct {
			Required             []string `json:"required"`
			AdditionalProperties bool     `json:"additionalProperties"`
		}
		if err := json.Unmarshal(d.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{"ls": {}, "read": {"path"}, "write": {"path", "content"}, "edit": {"path", "old_string", "new_string"}, "find": {"pattern"}, "grep": {"pattern"}, "patch": {"patch"}}[d.Name]
		if !slices.Equal(s.Required, want) || s.AdditionalProperties {
			t.Errorf("%s schema: required %v, additionalProperties %v", d.Name, s.Required, s.AdditionalProperties)
		}
	}
}

// hostWorkspace opens a workspace on a fresh directory holding files.
func hostWorkspace(t *testing.T, opts llmfs.Options, files map[string]string) (*llmfs.Workspace, string) {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts.Root = dir
	ws, err := host.Open(&opts)
	if err != nil {
		t.Fatal(err)
	}
	return ws, dir
}

// call runs a tool and returns its result or error as the JSON a model sees.
func call(t *testing.T, tb *tools.Toolbox, name, args string) string {
	t.Helper()
	out, err := tb.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		return string(tools.ErrorJSON(err))
	}
	return string(out)
}

// TestRTCNoHostPaths makes many calls, good and bad, on a host directory and checks that
// no result or message shows the host path.
func TestRTCNoHostPaths(t *testing.T) {
	ws, dir := hostWorkspace(t, llmfs.Options{}, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "bin": "\x00"})
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "inside")); err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, tools.RTC)
	if err != nil {
		t.Fatal(err)
	}
	calls := [][2]string{
		{"ls", `{}`}, {"ls", `{"path":"/d"}`}, {"ls", `{"path":"/a.txt"}`}, {"ls", `{"path":"/missing"}`},
		{"read", `{"path":"/a.txt"}`}, {"read", `{"path":"/missing"}`}, {"read", `{"path":"/d"}`}, {"read", `{"path":"/bin"}`},
		{"read", `{"path":"/escape"}`}, {"read", `{"path":"/inside"}`}, {"read", `{"path":"/a.txt/x"}`},
		{"write", `{"path":"/a.txt","content":"x"}`}, {"write", `{"path":"/d","content":"x"}`}, {"write", `{"path":"/a.txt/x","content":"x"}`},
		{"write", `{"path":"/escape","content":"x","mode":"append"}`}, {"write", `{"path":"/n/new.txt","content":"x"}`},
		{"edit", `{"path":"/a.txt","old_string":"a","new_string":"b"}`}, {"edit", `{"path":"/d","old_string":"a","new_string":"b"}`},
		{"edit", `{"path":"/bin","old_string":"a","new_string":"b"}`}, {"edit", `{"path":"/missing","old_string":"a","new_string":"b"}`},
	}
	for _, c := range calls {
		got := call(t, tb, c[0], c[1])
		t.Logf("%s %s = %s", c[0], c[1], got)
		if strings.Contains(got, dir) || strings.Contains(got, strings.TrimPrefix(dir, "/")) {
			t.Errorf("%s %s = %s: shows the host path", c[0], c[1], got)
		}
	}
	// A host path given as a virtual path is just a missing file below the root.
	want := `{"code":"FILE_NOT_FOUND","message":"no such file or directory: ` + dir + `/a.txt"}`
	if got := call(t, tb, "read", `{"path":"`+dir+`/a.txt"}`); got != want {
		t.Errorf("read(host path) = %s, want %s", got, want)
	}
	// remove is in the Go API, not among the tools.
	if got := call(t, tb, "remove", `{"path":"/a.txt"}`); !strings.Contains(got, `unknown tool \"remove\"`) {
		t.Errorf("remove = %s", got)
	}
	if p, err := tb.Workspace().Delete(context.Background(), "/n/new.txt"); err != nil || p != "/n/new.txt" {
		t.Errorf("Workspace().Delete = %q, %v", p, err)
	}
}

// TestRTCReadBeforeEditDefaults: on in rtc, off in agentool, switchable either way.
func TestRTCReadBeforeEditDefaults(t *testing.T) {
	on, off := true, false
	type test struct {
		dialect     tools.Dialect
		wsRequires  bool
		opt         *bool
		wantRequire bool
	}
	for _, tc := range []test{
		{tools.RTC, false, nil, true},
		{tools.RTC, true, nil, true},
		{tools.RTC, false, &off, false},
		{tools.Agentool, false, nil, false},
		{tools.Agentool, true, nil, true},
		{tools.Agentool, false, &on, true},
		{tools.Agentool, true, &off, false},
	} {
		ws, _ := hostWorkspace(t, llmfs.Options{RequireRead: tc.wsRequires}, map[string]string{"a.txt": "a\n"})
		tb, err := tools.NewWithOptions(ws, tc.dialect, &tools.Options{RequireRead: tc.opt})
		if err != nil {
			t.Fatal(err)
		}
		if got := tb.Workspace().Settings().RequireRead; got != tc.wantRequire {
			t.Errorf("%s, workspace RequireRead %v, option %v: RequiresRead = %v", tc.dialect, tc.wsRequires, tc.opt, got)
		}
		edit := map[tools.Dialect]string{tools.RTC: "edit", tools.Agentool: "file_edit"}[tc.dialect]
		args := map[tools.Dialect]string{tools.RTC: `{"path":"a.txt","old_string":"a","new_string":"b"}`, tools.Agentool: `{"path":"a.txt","old_text":"a","new_text":"b"}`}[tc.dialect]
		got := call(t, tb, edit, args)
		if refused := strings.Contains(got, "FILE_NOT_READ"); refused != tc.wantRequire {
			t.Errorf("%s edit without a read = %s", tc.dialect, got)
		}
	}
}

// TestDialectsTextKinds: CRLF, BOM, binary and invalid UTF-8 through both dialects, with
// the exact results a model sees (txtar cannot hold these files).
func TestDialectsTextKinds(t *testing.T) {
	files := map[string]string{
		"crlf.txt":   "\uFEFFone\r\ntwo\r\n",
		"bin.dat":    "\x7fELF\x00\x01", // binary, and no image (a GIF would be read as one)
		"latin1.txt": "caf\xe9\n",
	}
	type test struct {
		dialect    tools.Dialect
		tool, args string
		want       string
	}
	tests := []test{
		{tools.RTC, "read", `{"path":"/crlf.txt"}`, `{"content":"     1\tone\n     2\ttwo\n","path":"/crlf.txt","total_lines":2}`},
		{tools.RTC, "edit", `{"path":"/crlf.txt","old_string":"one\ntwo","new_string":"1\n2\n3"}`,
			`{"diff":"--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,2 +1,3 @@\n-\ufeffone\r\n-two\r\n+\ufeff1\r\n+2\r\n+3\r\n","path":"/crlf.txt","replacements":1}`},
		{tools.RTC, "read", `{"path":"/bin.dat"}`, `{"code":"BINARY_FILE","message":"binary file (it contains NUL bytes); it cannot be read as text: /bin.dat"}`},
		{tools.RTC, "read", `{"path":"/latin1.txt"}`,
			`{"content":"     1\tcaf\ufffd\n(the file is not valid UTF-8: bytes that are not were replaced with U+FFFD)\n","invalid_utf8":true,"path":"/latin1.txt","total_lines":1}`},
		{tools.Agentool, "file_read", `{"path":"crlf.txt"}`, `{"content":"\ufeffone\r\ntwo\r\n","total_lines":2}`},
		{tools.Agentool, "file_edit", `{"path":"crlf.txt","old_text":"one\n","new_text":"uno\n"}`,
			`{"diff":"--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,2 +1,2 @@\n-\ufeffone\r\n+\ufeffuno\r\n two\r\n","path":"$ROOT/crlf.txt","replacements":1}`},
		{tools.Agentool, "file_read", `{"path":"bin.dat"}`, `{"code":"BINARY_FILE","message":"binary file (it contains NUL bytes); it cannot be read as text: bin.dat"}`},
		{tools.Agentool, "file_edit", `{"path":"bin.dat","old_text":"ELF","new_text":"PNG"}`, `{"code":"BINARY_FILE","message":"binary file (it contains NUL bytes); it cannot be edited as text: bin.dat"}`},
		{tools.Agentool, "file_read", `{"path":"latin1.txt"}`, `{"content":"caf\ufffd\n","invalid_utf8":true,"total_lines":1}`},
	}
	for _, tc := range tests {
		ws, dir := hostWorkspace(t, llmfs.Options{}, files)
		tb, err := tools.NewWithOptions(ws, tc.dialect, &tools.Options{RequireRead: new(bool)})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.ReplaceAll(call(t, tb, tc.tool, tc.args), dir, "$ROOT")
		if want := jsonOf(t, tc.want); got != want {
			t.Errorf("%s %s %s =\n%s\nwant\n%s", tc.dialect, tc.tool, tc.args, got, want)
		}
	}
	// After the edits above, the file bytes keep the mark and CRLF.
	ws, dir := hostWorkspace(t, llmfs.Options{}, files)
	tb, _ := tools.NewWithOptions(ws, tools.RTC, &tools.Options{RequireRead: new(bool)})
	call(t, tb, "edit", `{"path":"/crlf.txt","old_string":"one\ntwo\n","new_string":"x\n"}`)
	if b, _ := os.ReadFile(filepath.Join(dir, "crlf.txt")); string(b) != "\uFEFFx\r\n" {
		t.Errorf("file after edit = %q", b)
	}
}

// jsonOf re-encodes a JSON text the way Call does, so expectations can be written readably.
func jsonOf(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expectation %s: %v", s, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
