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

// TestMemoriesElsewhere: with Options.Memories the anthropic memory tool keeps its notes in
// a directory outside the tree it works on; the model still sees /memories, and nothing
// appears in the tree (issue 33 item 12: /memories was left in the person's repository).
func TestMemoriesElsewhere(t *testing.T) {
	ctx := context.Background()
	tree, notes := t.TempDir(), t.TempDir()
	ws, err := host.Open(&llmfs.Options{Root: tree})
	if err != nil {
		t.Fatal(err)
	}
	mem, err := host.Open(&llmfs.Options{Root: notes})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.NewWithOptions(ws, tools.Anthropic, &tools.Options{Memories: mem})
	if err != nil {
		t.Fatal(err)
	}
	call := func(args string) (map[string]any, error) {
		t.Helper()
		out, err := tb.Call(ctx, "memory", json.RawMessage(args))
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		return m, nil
	}
	if _, err := call(`{"command":"view","path":"/memories"}`); err != nil {
		t.Fatalf("view of the empty memories: %v", err)
	}
	res, err := call(`{"command":"create","path":"/memories/progress.md","file_text":"step 1 done\n"}`)
	if err != nil || res["path"] != "/memories/progress.md" {
		t.Fatalf("create: %v, %v; want the path /memories/progress.md", res, err)
	}
	if b, err := os.ReadFile(filepath.Join(notes, "progress.md")); err != nil || string(b) != "step 1 done\n" {
		t.Errorf("the note in the memories directory: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(tree, "memories")); !os.IsNotExist(err) {
		t.Errorf("memories in the tree: %v", err)
	}
	if _, err := call(`{"command":"str_replace","path":"/memories/progress.md","old_str":"1","new_str":"2"}`); err != nil {
		t.Fatal(err)
	}
	res, err = call(`{"command":"view","path":"/memories/progress.md"}`)
	if err != nil || !strings.Contains(res["content"].(string), "step 2 done") || res["path"] != "/memories/progress.md" {
		t.Errorf("view: %v, %v", res, err)
	}
	res, err = call(`{"command":"rename","old_path":"/memories/progress.md","new_path":"/memories/done.md"}`)
	if err != nil || res["destination"] != "/memories/done.md" {
		t.Errorf("rename: %v, %v", res, err)
	}
	// Outside /memories is refused, and an error names the model's path.
	if _, err := call(`{"command":"view","path":"/etc"}`); llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
		t.Errorf("view /etc: %v, want INVALID_PATH", err)
	}
	if _, err := call(`{"command":"view","path":"/memories/nope.md"}`); llmfs.CodeOf(err) != llmfs.CodeFileNotFound || !strings.Contains(err.Error(), "/memories/nope.md") {
		t.Errorf("view of a missing note: %v, want FILE_NOT_FOUND naming /memories/nope.md", err)
	}
	if _, err := call(`{"command":"delete","path":"/memories"}`); llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
		t.Errorf("delete /memories: %v, want INVALID_ARGUMENT", err)
	}
	if _, err := call(`{"command":"delete","path":"/memories/done.md"}`); err != nil {
		t.Errorf("delete: %v", err)
	}
}
