package llmfs_test

import (
	"slices"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
)

// namesOf is List's entries as ListNames returns them: without sizes or times.
func namesOf(entries []llmfs.Entry) []llmfs.Entry {
	out := make([]llmfs.Entry, len(entries))
	for i, e := range entries {
		out[i] = llmfs.Entry{Name: e.Name, Type: e.Type}
	}
	return out
}

func TestListNames(t *testing.T) {
	eachBackend(t, &llmfs.Options{Deny: []string{"**/hidden.txt"}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "b.txt", "bb\n")
		put(t, w, "a/x.txt", "x\n")
		put(t, llmfs.New(w.Store(), &llmfs.Options{NoDefaultDeny: true}), "hidden.txt", "h\n")
		put(t, w, ".dot", "")
		for _, dir := range []string{".", "a"} {
			list, err := w.List(bg, dir)
			noErr(t, err)
			names, err := w.ListNames(bg, dir)
			noErr(t, err)
			if want := namesOf(list); !slices.Equal(names, want) {
				t.Errorf("ListNames(%q) = %v, want %v", dir, names, want)
			}
		}
		_, err := w.ListNames(bg, "b.txt")
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.ListNames(bg, "missing")
		wantCode(t, err, llmfs.CodeFileNotFound)
		_, err = w.ListNames(bg, "hidden.txt")
		wantCode(t, err, llmfs.CodePermissionDenied)
	})
}

// TestListNamesStatsNothing is the repro of issue 18: a listing for names stat'ed every
// entry, as a listing with sizes must.
func TestListNamesStatsNothing(t *testing.T) {
	c := &openCounter{Store: mem.New()}
	w := llmfs.New(c, nil)
	for _, p := range []string{"a.txt", "b.txt", "d/c.txt"} {
		put(t, w, p, "x\n")
	}
	c.stats.Store(0)
	names, err := w.ListNames(bg, ".")
	noErr(t, err)
	if len(names) != 3 {
		t.Fatalf("ListNames = %v", names)
	}
	if s := c.stats.Load(); s != 1 { // the directory itself
		t.Errorf("%d stats, want 1", s)
	}
}
