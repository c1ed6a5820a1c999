package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
)

// Issue 17.3: a patch that fails while writing, after it has already updated, deleted and
// moved files, puts every one of them back, on every backend (osdir, SQLite, mem, and
// PostgreSQL when configured). Here the failure is real, not a quota, and comes only at the
// write: the patch adds a file "made", then "made/new.txt" below it, and no store can make
// a directory where it has just written a file. Every file was absent or as planned when
// the patch was planned.
func TestPatchAtomicWhenALaterWriteFails(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		before := map[string]string{"a.txt": "one\n", "gone.txt": "bye\n", "mv/from.txt": "move me\n"}
		for p, c := range before {
			put(t, w, p, c)
		}
		const p = "*** Begin Patch\n" +
			"*** Update File: a.txt\n@@\n-one\n+uno\n" +
			"*** Delete File: gone.txt\n" +
			"*** Update File: mv/from.txt\n*** Move to: mv/to.txt\n@@\n-move me\n+moved\n" +
			"*** Add File: made\n+a file\n" +
			"*** Add File: made/new.txt\n+cannot be\n" +
			"*** End Patch\n"
		_, err := w.Patch(bg, p, llmfs.PatchOptions{})
		if err == nil {
			t.Fatal("the patch succeeded")
		}
		for p, want := range before {
			if got, ok := raw(t, w, p); !ok || got != want {
				t.Errorf("%s = %q (exists %v) after the failed patch, want %q", p, got, ok, want)
			}
		}
		for _, p := range []string{"mv/to.txt", "made", "made/new.txt"} {
			if _, ok := raw(t, w, p); ok {
				t.Errorf("%s exists after the failed patch", p)
			}
		}
	})
}
