//go:build !js && !wasip1

package osdir_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// A single name is opened with a plain openat and O_NOFOLLOW (issue 40), which must
// refuse what openat2's resolve flags refused: a final link, to a file or a directory,
// and "..".
func TestDirHandleOneNameRefusesLinks(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	if err := os.MkdirAll(filepath.Join(root, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(root, "a", "in.txt"), filepath.Join(base, "secret.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(root, "out.txt")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("a/in.txt", filepath.Join(root, "in.txt")); err != nil {
		t.Fatal(err)
	}
	s, err := osdir.New(root, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := s.OpenDir(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if r, err := d.Open(".."); err == nil {
		r.Close()
		t.Error(`Open("..") succeeded`)
	}
	if sub, err := d.OpenDir(".."); err == nil {
		sub.Close()
		t.Error(`OpenDir("..") succeeded`)
	}
	r, err := d.Open("in.txt")
	if err != nil {
		t.Fatalf("Open(in.txt): %v", err)
	}
	r.Close()
	top, err := s.OpenDir(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	for _, link := range []string{"out.txt", "in.txt"} {
		if r, err := top.Open(link); !errors.Is(err, store.ErrSymlink) {
			if err == nil {
				r.Close()
			}
			t.Errorf("Open(%s): %v; want store.ErrSymlink", link, err)
		}
	}
}
