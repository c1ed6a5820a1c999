//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// TestMemoryLinkStaysInside: a symbolic link inside /memories that leads to the rest of
// the workspace is refused by every memory command (INVALID_PATH, nothing read, written or
// deleted there), and view does not descend through it; while /memories itself may be a
// link to another directory of the workspace (issue 31, item 6).
func TestMemoryLinkStaysInside(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"src/secret.go": "package secret\n", "notes/a.md": "note\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// /memories is a link to notes (allowed); notes/l leads out of it, to src.
	if err := os.Symlink("notes", filepath.Join(root, "memories")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../src", filepath.Join(root, "notes", "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../src/secret.go", filepath.Join(root, "notes", "f.go")); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, tools.Anthropic)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := func(args string) (json.RawMessage, error) { return tb.Call(ctx, "memory", json.RawMessage(args)) }
	for _, args := range []string{
		`{"command":"view","path":"/memories/l/secret.go"}`,
		`{"command":"view","path":"/memories/f.go"}`,
		`{"command":"view","path":"/memories/l"}`,
		`{"command":"create","path":"/memories/l/new.txt","file_text":"x"}`,
		`{"command":"create","path":"/memories/f.go","file_text":"x"}`,
		`{"command":"str_replace","path":"/memories/l/secret.go","old_str":"secret","new_str":"gone"}`,
		`{"command":"insert","path":"/memories/f.go","insert_line":0,"insert_text":"x\n"}`,
		`{"command":"delete","path":"/memories/l/secret.go"}`,
		`{"command":"rename","old_path":"/memories/l/secret.go","new_path":"/memories/s.go"}`,
		`{"command":"rename","old_path":"/memories/a.md","new_path":"/memories/l/a.md"}`,
	} {
		out, err := call(args)
		if err == nil || tools.ErrorOf(err).Code != string(llmfs.CodeInvalidPath) {
			t.Errorf("memory %s = %.100s, %v; want INVALID_PATH", args, out, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src", "secret.go")); string(b) != "package secret\n" {
		t.Errorf("src/secret.go changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(root, "src", "new.txt")); err == nil {
		t.Error("src/new.txt was created through the link")
	}
	if _, err := os.Stat(filepath.Join(root, "notes", "a.md")); err != nil {
		t.Errorf("notes/a.md moved: %v", err)
	}
	out, err := call(`{"command":"view","path":"/memories"}`)
	if err != nil || strings.Contains(string(out), "secret") || !strings.Contains(string(out), "a.md") {
		t.Errorf("view /memories = %s, %v; want a.md listed and nothing through the link", out, err)
	}
	if out, err := call(`{"command":"create","path":"/memories/b.md","file_text":"b\n"}`); err != nil {
		t.Errorf("create inside /memories: %s, %v", out, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "notes", "b.md")); string(b) != "b\n" {
		t.Errorf("notes/b.md = %q", b)
	}
}
