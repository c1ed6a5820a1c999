//go:build !js && !wasip1

package search

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store/osdir"
)

// A grep's walk opens each file by its one name relative to the directory it listed,
// held open until the file is opened (issue 40: the whole path from the root again was
// a third of a grep's system call time): a directory renamed on the host between its
// listing and the open is read where it went, not looked up by its old path.
func TestWalkOpensRelativeToHeldDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "b", "f.txt"), []byte("held\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fsys, err := pickFS(s)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.close()
	ctx := context.Background()
	wk := newWalker(ctx, fsys, walkOptions{threads: 1, holdFiles: true})
	var got []string
	err = wk.walk(".", "", func(f file) bool {
		if err := os.Rename(filepath.Join(dir, "a", "b"), filepath.Join(dir, "a", "c")); err != nil {
			t.Fatal(err)
		}
		r, err := wk.open(ctx, f)
		if err != nil {
			t.Fatalf("open %s after its directory moved: %v", f.name, err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f.name+": "+string(data))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "a/b/f.txt: held\n" {
		t.Errorf("read %q, want a/b/f.txt: held", got)
	}
}
