//go:build !js && !wasip1

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
)

// fsFixture is a project directory, a directory outside it, and a file server with
// session "s1" on the project, joined to an agent-side connection by OS pipes.
type fsFixture struct {
	root, outside string
	srv           *FileServer
	agent         *Conn
}

func newFSFixture(t *testing.T, opts *FileServerOptions) *fsFixture {
	t.Helper()
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir()) // the roots' journals
	base := t.TempDir()
	f := &fsFixture{root: filepath.Join(base, "proj"), outside: filepath.Join(base, "outside")}
	writeFiles(t, f.root, map[string]string{
		"a.txt":      "one\ntwo\nthree\nfour\nfive\n",
		"crlf.txt":   "a\r\nb\r\nc",
		"long.txt":   strings.Repeat("x", 5000) + "\n",
		"sub/b.go":   "package b\n",
		"binary.bin": "ab\x00cd",
	})
	writeFiles(t, f.outside, map[string]string{"secret.txt": "top secret\n"})
	if err := os.Symlink(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.root, "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.outside, filepath.Join(f.root, "dirlink-out")); err != nil {
		t.Fatal(err)
	}
	f.srv = NewFileServer(opts)
	if err := f.srv.AddSession("s1", f.root); err != nil {
		t.Fatal(err)
	}
	f.agent = pipeConns(t, f.srv.Handle)
	return f
}

// pipeConns serves h on one end of a pair of OS pipes and returns the other end.
func pipeConns(t *testing.T, h Handler) *Conn {
	t.Helper()
	ar, bw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	br, aw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	a := NewConn(ar, aw, nil)
	b := NewConn(br, bw, h)
	t.Cleanup(func() { a.Close(); b.Close(); ar.Close(); br.Close() })
	return a
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *fsFixture) read(params map[string]any) (string, error) {
	var res ReadTextFileResponse
	err := f.agent.Call(context.Background(), MethodReadTextFile, params, &res)
	return res.Content, err
}

func (f *fsFixture) write(params map[string]any) error {
	var res json.RawMessage
	err := f.agent.Call(context.Background(), MethodWriteTextFile, params, &res)
	if err == nil && string(res) != "{}" {
		// ACP v1's WriteTextFileResponse is an object; null fails strict clients.
		return errors.New("write result is " + string(res) + ", want {}")
	}
	return err
}

func rpcCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func TestFileServerRead(t *testing.T) {
	f := newFSFixture(t, nil)
	p := func(name string) string { return filepath.Join(f.root, name) }
	type test struct {
		name   string
		params map[string]any
		want   string
	}
	for _, tc := range []test{
		{"whole", map[string]any{"path": p("a.txt")}, "one\ntwo\nthree\nfour\nfive\n"},
		{"line", map[string]any{"path": p("a.txt"), "line": 2}, "two\nthree\nfour\nfive\n"},
		{"line and limit", map[string]any{"path": p("a.txt"), "line": 2, "limit": 2}, "two\nthree\n"},
		{"limit", map[string]any{"path": p("a.txt"), "limit": 1}, "one\n"},
		{"limit zero", map[string]any{"path": p("a.txt"), "limit": 0}, ""},
		{"null line", map[string]any{"path": p("a.txt"), "line": nil, "limit": nil}, "one\ntwo\nthree\nfour\nfive\n"},
		{"last line", map[string]any{"path": p("a.txt"), "line": 5}, "five\n"},
		{"past the end", map[string]any{"path": p("a.txt"), "line": 6}, ""},
		{"far past the end", map[string]any{"path": p("a.txt"), "line": 1000, "limit": 10}, ""},
		{"crlf kept", map[string]any{"path": p("crlf.txt")}, "a\r\nb\r\nc"},
		{"crlf line", map[string]any{"path": p("crlf.txt"), "line": 3}, "c"},
		{"long line uncut", map[string]any{"path": p("long.txt")}, strings.Repeat("x", 5000) + "\n"},
		{"nested", map[string]any{"path": p("sub/b.go")}, "package b\n"},
		{"dot-dot inside", map[string]any{"path": f.root + "/sub/../a.txt", "limit": 1}, "one\n"},
	} {
		tc.params["sessionId"] = "s1"
		got, err := f.read(tc.params)
		if err != nil || got != tc.want {
			t.Errorf("%s: read = %.80q, %v; want %.80q", tc.name, got, err, tc.want)
		}
	}
}

func TestFileServerReadErrors(t *testing.T) {
	f := newFSFixture(t, nil)
	p := func(name string) string { return filepath.Join(f.root, name) }
	type test struct {
		name   string
		params map[string]any
		code   int
	}
	notFound := []test{
		{"missing", map[string]any{"sessionId": "s1", "path": p("nope.txt")}, CodeResourceNotFound},
		{"missing dir", map[string]any{"sessionId": "s1", "path": p("no/such/file")}, CodeResourceNotFound},
	}
	// Issue 13.19: what lies outside the roots is refused as such, existing or not.
	refused := []test{
		{"outside", map[string]any{"sessionId": "s1", "path": filepath.Join(f.outside, "secret.txt")}, CodeInvalidParams},
		{"outside missing", map[string]any{"sessionId": "s1", "path": filepath.Join(f.outside, "nope.txt")}, CodeInvalidParams},
		{"dot-dot out", map[string]any{"sessionId": "s1", "path": f.root + "/../outside/secret.txt"}, CodeInvalidParams},
		{"prefix sibling", map[string]any{"sessionId": "s1", "path": f.root + "-evil/x"}, CodeInvalidParams},
		{"symlink out", map[string]any{"sessionId": "s1", "path": p("link-out")}, CodeInvalidParams},
		{"dir symlink out", map[string]any{"sessionId": "s1", "path": p("dirlink-out/secret.txt")}, CodeInvalidParams},
	}
	for _, tc := range refused {
		_, err := f.read(tc.params)
		var e *Error
		path := tc.params["path"].(string)
		if !errors.As(err, &e) || e.Code != CodeInvalidParams || !strings.Contains(e.Message, path+" is outside the session's roots") {
			t.Errorf("%s: err = %v, want -32602 saying %s is outside the session's roots", tc.name, err, path)
			continue
		}
		var data struct{ Path, Code string }
		if json.Unmarshal(e.Data, &data); data.Path != path || data.Code != "INVALID_PATH" {
			t.Errorf("%s: data %s", tc.name, e.Data)
		}
	}
	if _, err := f.read(map[string]any{"sessionId": "s1", "path": p("sub")}); rpcCode(err) != CodeInvalidParams || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("read of a directory: %v, want -32602 saying it is a directory", err)
	}
	for _, tc := range notFound {
		_, err := f.read(tc.params)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeResourceNotFound {
			t.Errorf("%s: err = %v, want -32002", tc.name, err)
			continue
		}
		path := tc.params["path"].(string)
		if e.Message != "Resource not found: "+path {
			t.Errorf("%s: message %q, want %q", tc.name, e.Message, "Resource not found: "+path)
		}
		var data struct{ URI string }
		if json.Unmarshal(e.Data, &data); data.URI != path {
			t.Errorf("%s: data %s, want uri %q", tc.name, e.Data, path)
		}
	}
	for _, tc := range []test{
		{"line zero", map[string]any{"sessionId": "s1", "path": p("a.txt"), "line": 0}, CodeInvalidParams},
		{"negative line", map[string]any{"sessionId": "s1", "path": p("a.txt"), "line": -1}, CodeInvalidParams},
		{"negative limit", map[string]any{"sessionId": "s1", "path": p("a.txt"), "limit": -1}, CodeInvalidParams},
		{"fractional line", map[string]any{"sessionId": "s1", "path": p("a.txt"), "line": 1.5}, CodeInvalidParams},
		{"string limit", map[string]any{"sessionId": "s1", "path": p("a.txt"), "limit": "3"}, CodeInvalidParams},
		{"unknown session", map[string]any{"sessionId": "nope", "path": p("a.txt")}, CodeInvalidParams},
		{"no session", map[string]any{"path": p("a.txt")}, CodeInvalidParams},
		{"relative path", map[string]any{"sessionId": "s1", "path": "a.txt"}, CodeInvalidParams},
		{"no path", map[string]any{"sessionId": "s1"}, CodeInvalidParams},
		{"binary", map[string]any{"sessionId": "s1", "path": p("binary.bin")}, CodeInternalError},
	} {
		if _, err := f.read(tc.params); rpcCode(err) != tc.code {
			t.Errorf("%s: err = %v, want code %d", tc.name, err, tc.code)
		}
	}
}

func TestFileServerWrite(t *testing.T) {
	f := newFSFixture(t, nil)
	p := func(name string) string { return filepath.Join(f.root, name) }
	type test struct {
		name, path, content string
	}
	for _, tc := range []test{
		{"new file", p("new.txt"), "hello\n"},
		{"nested new path", p("deep/er/still/new.txt"), "nested"},
		{"empty content", p("empty.txt"), ""},
		{"overwrite", p("a.txt"), "replaced\n"},
		{"overwrite with empty", p("sub/b.go"), ""},
		{"large", p("large.txt"), strings.Repeat("line of text\n", 100000)},
	} {
		if err := f.write(map[string]any{"sessionId": "s1", "path": tc.path, "content": tc.content}); err != nil {
			t.Errorf("%s: write: %v", tc.name, err)
			continue
		}
		got, err := os.ReadFile(tc.path)
		if err != nil || string(got) != tc.content {
			t.Errorf("%s: on disk %.40q, %v; want %.40q", tc.name, got, err, tc.content)
		}
	}
	changes := f.srv.Changes()
	if len(changes) != 6 {
		t.Fatalf("%d changes recorded, want 6: %+v", len(changes), changes)
	}
	c := changes[3]
	if c.ID != 4 || c.Path != p("a.txt") || c.Created || c.BeforeHash != store.Hash([]byte("one\ntwo\nthree\nfour\nfive\n")) ||
		c.AfterHash != store.Hash([]byte("replaced\n")) || c.SessionID != "s1" || c.Time.IsZero() {
		t.Errorf("overwrite change = %+v", c)
	}
	if c := changes[0]; !c.Created || c.BeforeHash != "" || c.AfterHash != store.Hash([]byte("hello\n")) {
		t.Errorf("create change = %+v", c)
	}

	// Failures write nothing and record nothing.
	for _, params := range []map[string]any{
		{"sessionId": "s1", "path": filepath.Join(f.outside, "x.txt"), "content": "x"},
		{"sessionId": "s1", "path": p("link-out"), "content": "pwned"},
		{"sessionId": "s1", "path": p("dirlink-out/new.txt"), "content": "pwned"},
		{"sessionId": "s1", "path": p("x.txt")},
		{"sessionId": "s1", "path": "rel.txt", "content": "x"},
		{"sessionId": "zz", "path": p("x.txt"), "content": "x"},
	} {
		if err := f.write(params); err == nil {
			t.Errorf("write %v succeeded", params)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(f.outside, "secret.txt")); string(got) != "top secret\n" {
		t.Errorf("secret changed to %q", got)
	}
	for _, name := range []string{"x.txt", "new.txt"} {
		if _, err := os.Stat(filepath.Join(f.outside, name)); err == nil {
			t.Errorf("%s was created outside the root", name)
		}
	}
	if n := len(f.srv.Changes()); n != 6 {
		t.Errorf("%d changes after failed writes, want 6", n)
	}
}

// TestFileServerWriteAtomic checks that a write replaces the file in one step (a new file
// renamed over the old) rather than truncating and rewriting it: a reader that opened the
// old file still reads the old content whole.
func TestFileServerWriteAtomic(t *testing.T) {
	f := newFSFixture(t, nil)
	a := filepath.Join(f.root, "a.txt")
	old, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := f.write(map[string]any{"sessionId": "s1", "path": a, "content": "new content\n"}); err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(old)
	if string(got) != "one\ntwo\nthree\nfour\nfive\n" {
		t.Errorf("a reader of the old file saw %q: the write was not a rename", got)
	}
	if now, _ := os.ReadFile(a); string(now) != "new content\n" {
		t.Errorf("a.txt = %q", now)
	}
	entries, _ := os.ReadDir(f.root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), "tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestFileServerUndo(t *testing.T) {
	f := newFSFixture(t, nil)
	p := func(name string) string { return filepath.Join(f.root, name) }
	ctx := context.Background()
	if err := f.write(map[string]any{"sessionId": "s1", "path": p("a.txt"), "content": "new\n"}); err != nil {
		t.Fatal(err)
	}
	if err := f.write(map[string]any{"sessionId": "s1", "path": p("made/new.txt"), "content": "x"}); err != nil {
		t.Fatal(err)
	}
	if err := f.srv.Undo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p("a.txt")); string(got) != "one\ntwo\nthree\nfour\nfive\n" {
		t.Errorf("after undo a.txt = %q", got)
	}
	if err := f.srv.Undo(ctx, 1); err == nil {
		t.Error("undoing twice succeeded")
	}
	// A file changed since the agent wrote it is not clobbered.
	os.WriteFile(p("made/new.txt"), []byte("user edit"), 0o644)
	if err := f.srv.Undo(ctx, 2); err == nil {
		t.Error("undo over a user's edit succeeded")
	}
	os.WriteFile(p("made/new.txt"), []byte("x"), 0o644)
	if err := f.srv.Undo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p("made/new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("created file still there after undo: %v", err)
	}
	if c := f.srv.Changes(); !c[0].Undone || !c[1].Undone {
		t.Errorf("changes not marked undone: %+v", c)
	}
	if err := f.srv.Undo(ctx, 9); err == nil {
		t.Error("undo of a change that does not exist succeeded")
	}
	// A binary file overwritten: the journal keeps its bytes, so the undo puts them back.
	if err := f.write(map[string]any{"sessionId": "s1", "path": p("binary.bin"), "content": "text now"}); err != nil {
		t.Fatal(err)
	}
	if c := f.srv.Changes()[2]; c.BeforeHash != store.Hash([]byte("ab\x00cd")) || c.Created {
		t.Errorf("binary overwrite change = %+v", c)
	}
	if err := f.srv.Undo(ctx, 3); err != nil {
		t.Fatalf("undo of a binary overwrite: %v", err)
	}
	if got, _ := os.ReadFile(p("binary.bin")); string(got) != "ab\x00cd" {
		t.Errorf("after undo binary.bin = %q", got)
	}
}

func TestFileServerBuffers(t *testing.T) {
	f := newFSFixture(t, nil)
	a := filepath.Join(f.root, "a.txt")
	f.srv.SetBuffer(a, "unsaved 1\nunsaved 2\nunsaved 3")
	got, err := f.read(map[string]any{"sessionId": "s1", "path": a})
	if err != nil || got != "unsaved 1\nunsaved 2\nunsaved 3" {
		t.Fatalf("read with buffer = %q, %v", got, err)
	}
	got, err = f.read(map[string]any{"sessionId": "s1", "path": a, "line": 2, "limit": 1})
	if err != nil || got != "unsaved 2\n" {
		t.Fatalf("read of buffer line 2 = %q, %v", got, err)
	}
	got, _ = f.read(map[string]any{"sessionId": "s1", "path": a, "line": 3})
	if got != "unsaved 3" {
		t.Fatalf("read of buffer line 3 = %q", got)
	}
	got, _ = f.read(map[string]any{"sessionId": "s1", "path": a, "line": 4})
	if got != "" {
		t.Fatalf("read of buffer past the end = %q", got)
	}
	// A buffer for a file not yet on disk.
	nb := filepath.Join(f.root, "untitled.txt")
	f.srv.SetBuffer(nb, "draft")
	if got, err := f.read(map[string]any{"sessionId": "s1", "path": nb}); err != nil || got != "draft" {
		t.Fatalf("read of an unsaved new file = %q, %v", got, err)
	}

	if err := f.write(map[string]any{"sessionId": "s1", "path": a, "content": "agent\n"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := f.srv.Buffer(a); b != "agent\n" {
		t.Errorf("buffer after write = %q", b)
	}
	if disk, _ := os.ReadFile(a); string(disk) != "agent\n" {
		t.Errorf("disk after write = %q", disk)
	}
	if c := f.srv.Changes()[0]; c.BeforeHash != store.Hash([]byte("unsaved 1\nunsaved 2\nunsaved 3")) {
		t.Errorf("before hash is not the buffer's: %+v", c)
	}
	f.srv.SetBuffer(a, "typed again")
	f.srv.ClearBuffer(a)
	if got, _ := f.read(map[string]any{"sessionId": "s1", "path": a}); got != "agent\n" {
		t.Errorf("read after ClearBuffer = %q, want the disk", got)
	}
}

func TestFileServerReadOnly(t *testing.T) {
	f := newFSFixture(t, &FileServerOptions{Mode: llmfs.ReadOnly})
	if c := f.srv.Capabilities(); !c.ReadTextFile || c.WriteTextFile {
		t.Errorf("read-only capabilities = %+v", c)
	}
	if got, err := f.read(map[string]any{"sessionId": "s1", "path": filepath.Join(f.root, "a.txt"), "limit": 1}); err != nil || got != "one\n" {
		t.Errorf("read-only read = %q, %v", got, err)
	}
	err := f.write(map[string]any{"sessionId": "s1", "path": filepath.Join(f.root, "a.txt"), "content": "x"})
	if rpcCode(err) != CodeMethodNotFound {
		t.Errorf("read-only write = %v, want -32601", err)
	}
	if got, _ := os.ReadFile(filepath.Join(f.root, "a.txt")); string(got) != "one\ntwo\nthree\nfour\nfive\n" {
		t.Errorf("read-only server changed a.txt to %q", got)
	}
	if c := NewFileServer(nil).Capabilities(); !c.ReadTextFile || !c.WriteTextFile {
		t.Errorf("default capabilities = %+v", c)
	}
}

func TestFileServerExtraRoots(t *testing.T) {
	f := newFSFixture(t, nil)
	if err := f.srv.AddSession("s2", f.root, f.outside); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(f.outside, "secret.txt")
	if got, err := f.read(map[string]any{"sessionId": "s2", "path": secret}); err != nil || got != "top secret\n" {
		t.Errorf("read in a granted root = %q, %v", got, err)
	}
	// The symlink from the project into the granted root is fine for s2, not for s1.
	if got, err := f.read(map[string]any{"sessionId": "s2", "path": filepath.Join(f.root, "link-out")}); err != nil || got != "top secret\n" {
		t.Errorf("read through a link into a granted root = %q, %v", got, err)
	}
	if _, err := f.read(map[string]any{"sessionId": "s1", "path": secret}); rpcCode(err) != CodeInvalidParams {
		t.Errorf("s1 read outside = %v", err)
	}
	f.srv.RemoveSession("s2")
	if _, err := f.read(map[string]any{"sessionId": "s2", "path": secret}); rpcCode(err) != CodeInvalidParams {
		t.Errorf("read in a removed session = %v, want -32602", err)
	}
	if err := f.srv.AddSession("s3", "relative/dir"); err == nil {
		t.Error("AddSession with a relative cwd succeeded")
	}
	if err := f.srv.AddSession("s3", filepath.Join(f.root, "nope")); err == nil {
		t.Error("AddSession with a missing cwd succeeded")
	}
}

func TestSliceLines(t *testing.T) {
	type test struct {
		s           string
		line, limit int
		want        string
	}
	for _, tc := range []test{
		{"a\nb\nc", 1, -1, "a\nb\nc"},
		{"a\nb\nc", 2, -1, "b\nc"},
		{"a\nb\nc", 3, 1, "c"},
		{"a\nb\nc", 4, -1, ""},
		{"a\nb\n", 3, -1, ""},
		{"a\nb\n", 1, 0, ""},
		{"a\r\nb\r\n", 1, 1, "a\r\n"},
		{"", 1, -1, ""},
	} {
		if got := sliceLines(tc.s, tc.line, tc.limit); got != tc.want {
			t.Errorf("sliceLines(%q, %d, %d) = %q, want %q", tc.s, tc.line, tc.limit, got, tc.want)
		}
	}
}

func TestFileServerWorkspacePolicy(t *testing.T) {
	f := newFSFixture(t, &FileServerOptions{Workspace: &llmfs.Options{
		Deny:  []string{"a.txt"},
		Quota: llmfs.Quota{MaxFileBytes: 4},
	}})
	_, err := f.read(map[string]any{"sessionId": "s1", "path": filepath.Join(f.root, "a.txt")})
	if err == nil {
		t.Fatal("read of a denied file succeeded")
	}
	err = f.write(map[string]any{"sessionId": "s1", "path": filepath.Join(f.root, "big.txt"), "content": "too big"})
	if err == nil {
		t.Fatal("write over the per-file quota succeeded")
	}
	if _, serr := os.Stat(filepath.Join(f.root, "big.txt")); !os.IsNotExist(serr) {
		t.Errorf("write over quota left big.txt behind (err %v)", serr)
	}
}

// TestFileServerUndoBuffers checks that Undo of a write over an unsaved buffer puts back
// both what was on disk and the buffer, rather than saving the buffer to disk.
func TestFileServerUndoBuffers(t *testing.T) {
	f := newFSFixture(t, nil)
	ctx := context.Background()
	a := filepath.Join(f.root, "a.txt")
	f.srv.SetBuffer(a, "unsaved\n")
	if err := f.write(map[string]any{"sessionId": "s1", "path": a, "content": "agent\n"}); err != nil {
		t.Fatal(err)
	}
	// A buffer for a file that is not on disk yet.
	nb := filepath.Join(f.root, "untitled.txt")
	f.srv.SetBuffer(nb, "draft")
	if err := f.write(map[string]any{"sessionId": "s1", "path": nb, "content": "agent draft"}); err != nil {
		t.Fatal(err)
	}
	for id := 1; id <= 2; id++ {
		if err := f.srv.Undo(ctx, id); err != nil {
			t.Fatalf("Undo(%d): %v", id, err)
		}
	}
	if disk, _ := os.ReadFile(a); string(disk) != "one\ntwo\nthree\nfour\nfive\n" {
		t.Errorf("disk after undo = %q, want what was saved before", disk)
	}
	if b, ok := f.srv.Buffer(a); !ok || b != "unsaved\n" {
		t.Errorf("buffer after undo = %q, %v, want the unsaved text", b, ok)
	}
	if _, err := os.Stat(nb); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file the write put on disk is still there after undo: %v", err)
	}
	if b, ok := f.srv.Buffer(nb); !ok || b != "draft" {
		t.Errorf("buffer of the unsaved new file after undo = %q, %v, want the draft", b, ok)
	}
}

// TestFileServerChangesOnJournal: issue 14.7, the file server's change log and undo are
// the workspace journal's: each write is a change of actor acp:<session>, an Undo is a
// journaled undo (so it can be redone), a write the journal saw undone elsewhere (llmfs
// undo) shows as undone, and Undo refuses with FILE_CHANGED, with the diff, a file
// changed since on disk.
func TestFileServerChangesOnJournal(t *testing.T) {
	f := newFSFixture(t, nil)
	ctx := context.Background()
	a := filepath.Join(f.root, "a.txt")
	for _, content := range []string{"first\n", "second\n"} {
		if err := f.write(map[string]any{"sessionId": "s1", "path": a, "content": content}); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := host.Open(&llmfs.Options{Root: f.root})
	if err != nil {
		t.Fatal(err)
	}
	changes := f.srv.Changes()
	for _, c := range changes {
		jc, err := ws.History().ChangeByID(ctx, c.Entry)
		if err != nil || jc.Actor != "acp:s1" || jc.Path != a || jc.After.Hash != c.AfterHash {
			t.Fatalf("change %d: journal entry %+v, %v; want a write of %s by acp:s1", c.ID, jc, err, a)
		}
	}
	// Undone through the journal by someone else: the file server sees it.
	if _, err := ws.History().Undo(ctx, changes[1].Entry); err != nil {
		t.Fatal(err)
	}
	if c := f.srv.Changes(); c[0].Undone || !c[1].Undone {
		t.Errorf("after llmfs undo of change 2: undone = %v, %v; want false, true", c[0].Undone, c[1].Undone)
	}
	if err := f.srv.Undo(ctx, 2); err == nil {
		t.Error("Undo of a change already undone through the journal succeeded")
	}
	// Changed on disk since: FILE_CHANGED with the diff, nothing touched.
	os.WriteFile(a, []byte("first\nby hand\n"), 0o644)
	err = f.srv.Undo(ctx, 1)
	if llmfs.CodeOf(err) != llmfs.CodeFileChanged || !strings.Contains(err.Error(), "+by hand") {
		t.Fatalf("Undo over a changed file = %v, want FILE_CHANGED with the diff", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "first\nby hand\n" {
		t.Errorf("refused undo touched a.txt: %q", got)
	}
	os.WriteFile(a, []byte("first\n"), 0o644)
	if err := f.srv.Undo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	cs, err := ws.History().List(ctx, llmfs.HistoryFilter{Limit: 1})
	if err != nil || len(cs) != 1 || cs[0].Op != llmfs.ChangeUndo || cs[0].Actor != "acp:s1" {
		t.Fatalf("newest journal entry = %+v, %v; want the undo, by acp:s1", cs, err)
	}
	if !f.srv.Changes()[0].Undone {
		t.Error("change 1 not undone after Undo")
	}
	if got, _ := os.ReadFile(a); string(got) != "one\ntwo\nthree\nfour\nfive\n" {
		t.Errorf("after undo a.txt = %q", got)
	}
}
