package llmfs_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// A move onto a file that exists is not shown as a bare rename: the destination's entry
// and diff show the content it loses (found by a review: the old content of b.txt was
// replaced with no word of it in the result).
func TestPatchMoveOntoExistingFileShown(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "one\n")
		put(t, w, "b.txt", "IMPORTANT\n")
		res, err := w.Patch(bg, "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+ONE\n*** End Patch\n", llmfs.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var ops []string
		for _, f := range res.Files {
			ops = append(ops, f.Op)
		}
		if len(res.Files) != 2 || !strings.Contains(res.Diff, "-IMPORTANT") {
			t.Errorf("ops %v, diff:\n%s\nwant the rename and an update of b.txt that removes IMPORTANT", ops, res.Diff)
		}
	})
}
