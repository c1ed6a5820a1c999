//go:build !js && !wasip1

package tools_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// Issue 32.7: Codex's test_update_file_hunk_can_move_file (apply-patch lib.rs): an update
// with "*** Move to:" reports one file, as Codex's "M dst.txt" does: a rename with its one
// hunk, the paths as the model wrote them (not absolute host paths), and a diff of the
// change rather than the whole file deleted and added again.
func TestCodexMoveAnswersAsCodex(t *testing.T) {
	ws, dir := hostWorkspace(t, llmfs.Options{}, map[string]string{"src.txt": "a\nb\nc\nd\nline\n"})
	tb, err := tools.New(ws, tools.Codex)
	if err != nil {
		t.Fatal(err)
	}
	out := callOK(t, tb, "apply_patch", `{"input":"*** Begin Patch\n*** Update File: src.txt\n*** Move to: dst.txt\n@@\n-line\n+line2\n*** End Patch\n"}`)
	files := out["files"].([]any)
	if len(files) != 1 {
		t.Fatalf("files = %v, want one", files)
	}
	f := files[0].(map[string]any)
	if f["op"] != "rename" || f["path"] != "src.txt" || f["to"] != "dst.txt" || f["hunks"] != float64(1) {
		t.Errorf("file = %v, want a rename of src.txt to dst.txt with one hunk", f)
	}
	want := "--- a/src.txt\n+++ b/dst.txt\n@@ -2,4 +2,4 @@\n b\n c\n d\n-line\n+line2\n"
	if d := out["diff"].(string); d != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
	if strings.Contains(out["diff"].(string)+f["path"].(string), dir) {
		t.Errorf("the answer shows the host path %s", dir)
	}
	fileIs(t, dir, "dst.txt", "a\nb\nc\nd\nline2\n")
}
