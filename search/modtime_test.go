//go:build !js && !wasip1

package search

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store/osdir"
)

// TestModTimeFollowsNoLinkOnTheWay: the modification time a find sorts by is looked up
// without passing through a symbolic link on the way, which could lead outside the root
// (a directory swapped for a link after the walk listed it), one file at a time and
// through the statter that keeps a parent directory open; a file inside is found by both.
func TestModTimeFollowsNoLinkOnTheWay(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "a", "real"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "a", "real", "in.txt"), filepath.Join(outside, "secret.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "a", "link")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	s, err := osdir.New(root, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := newDirFS(s)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	st := newStatter(d.root)
	defer st.close()
	for _, lookup := range []struct {
		how     string
		modTime func(string) (time.Time, error)
	}{{"modTime", d.root.ModTime}, {"statter", st.modTime}} {
		if mt, err := lookup.modTime("a/link/secret.txt"); err == nil {
			t.Errorf("%s(a/link/secret.txt) = %v through a link to outside the root, want an error", lookup.how, mt)
		}
		if _, err := lookup.modTime("a/real/in.txt"); err != nil {
			t.Errorf("%s(a/real/in.txt): %v", lookup.how, err)
		}
	}
}
