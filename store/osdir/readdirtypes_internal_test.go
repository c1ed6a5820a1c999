//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestReadDirTypes checks that ReadDirTypes lists what ReadDir lists, with the same types,
// and that an entry's Info describes it, in both modes.
func TestReadDirTypes(t *testing.T) {
	for _, relaxed := range []bool{false, true} {
		t.Run(fmt.Sprint("relaxed=", relaxed), func(t *testing.T) {
			dir := t.TempDir()
			s, err := New(dir, relaxed)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var _ store.TypeLister = s
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("aaa"), 0o644))
			must(os.Mkdir(filepath.Join(dir, "sub"), 0o755))
			must(os.Symlink("a.txt", filepath.Join(dir, "link")))
			must(os.Symlink("missing", filepath.Join(dir, "dangling")))
			if err := mkfifo(filepath.Join(dir, "fifo")); err != nil {
				t.Log("no FIFO:", err)
			}
			for i := range 2000 { // more than one getdents buffer
				must(os.WriteFile(filepath.Join(dir, "sub", fmt.Sprintf("f%04d", i)), nil, 0o644))
			}
			ctx := context.Background()
			for _, name := range []string{".", "sub"} {
				want, err := s.ReadDir(ctx, name)
				must(err)
				got, err := s.ReadDirTypes(ctx, name)
				must(err)
				if len(got) != len(want) {
					t.Fatalf("ReadDirTypes(%q): %d entries, ReadDir %d", name, len(got), len(want))
				}
				// Both sort with package namesort: check the order against the library's.
				byName := func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }
				if !slices.IsSortedFunc(got, byName) || !slices.IsSortedFunc(want, byName) {
					t.Errorf("%q: the listings are not sorted by name", name)
				}
				for i := range got {
					if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() || got[i].IsDir() != want[i].IsDir() {
						t.Errorf("entry %d: ReadDirTypes %v, ReadDir %v", i, got[i], want[i])
					}
					gi, err := got[i].Info()
					must(err)
					wi, _ := want[i].Info()
					if gi.Size() != wi.Size() || gi.Mode() != wi.Mode() {
						t.Errorf("%s: Info %v %d, want %v %d", got[i].Name(), gi.Mode(), gi.Size(), wi.Mode(), wi.Size())
					}
				}
			}
			if _, err := s.ReadDirTypes(ctx, "a.txt"); err == nil {
				t.Error("ReadDirTypes of a file succeeded")
			}
			if _, err := s.ReadDirTypes(ctx, "nope"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("ReadDirTypes of a missing name: %v", err)
			}
			if _, err := s.ReadDirTypes(ctx, "../x"); err == nil {
				t.Error("ReadDirTypes of ../x succeeded")
			}
		})
	}
}
