//go:build !js && !wasip1

package osdir_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// TestDirHandleListMatchesReadDir checks a handle's listing against os.ReadDir: the same
// names and types, sorted when asked and the same set when not, for a directory larger
// than one buffer of records, with the store's temporary files left out.
func TestDirHandleListMatchesReadDir(t *testing.T) {
	dir := t.TempDir()
	links := true
	for i := range 1500 {
		name := filepath.Join(dir, fmt.Sprintf("entry-with-a-long-name-%04d", i))
		var err error
		switch i % 3 {
		case 0:
			err = os.WriteFile(name, nil, 0o644)
		case 1:
			err = os.Mkdir(name, 0o755)
		default:
			if links {
				if err = os.Symlink("target", name); err != nil {
					links, err = false, os.WriteFile(name, nil, 0o644)
				}
			} else {
				err = os.WriteFile(name, nil, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".a.llmfs-00000001x2y3z"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	render := func(des []os.DirEntry) []string {
		var out []string
		for _, de := range des {
			out = append(out, fmt.Sprintf("%s %v", de.Name(), de.Type()))
		}
		return out
	}
	for _, anyOrder := range []bool{false, true} {
		d, err := s.OpenDir(context.Background(), ".")
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.ReadDir(anyOrder)
		if err != nil {
			t.Fatal(err)
		}
		// A second listing of the same handle starts from the start again.
		if again, err := d.ReadDir(anyOrder); err != nil || len(again) != len(got) {
			t.Errorf("second ReadDir: %d entries, %v; want %d", len(again), err, len(got))
		}
		// Info describes an entry while the directory is open and once it is closed.
		if fi, err := got[0].Info(); err != nil || fi.Name() != got[0].Name() || fi.Mode().Type() != got[0].Type() {
			t.Errorf("Info of %v while open = %v, %v", got[0], fi, err)
		}
		d.Close()
		if fi, err := got[1].Info(); err != nil || fi.Name() != got[1].Name() || fi.Mode().Type() != got[1].Type() {
			t.Errorf("Info of %v once closed = %v, %v", got[1], fi, err)
		}
		g, w := render(got), render(want)
		if anyOrder {
			slices.Sort(g)
		}
		if !slices.Equal(g, w) {
			t.Errorf("ReadDir(anyOrder %v): %d entries, os.ReadDir %d; first %q vs %q", anyOrder, len(g), len(w), g[:min(3, len(g))], w[:3])
		}
	}
}

// TestDirHandleRefusesLinks: a handle opens, lists and stats nothing through a symbolic
// link, on the way or at the end, even one that stays inside the store: it answers
// store.ErrSymlink, for the caller to resolve the name and ask again.
func TestDirHandleRefusesLinks(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "a"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "a", "in.txt"), filepath.Join(outside, "secret.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("a", filepath.Join(root, "in")); err != nil {
		t.Fatal(err)
	}
	s, err := osdir.New(root, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := s.OpenDir(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, link := range []string{"out", "in"} {
		if sub, err := d.OpenDir(link); !errors.Is(err, store.ErrSymlink) {
			t.Errorf("OpenDir(%s) = %v, %v; want store.ErrSymlink", link, sub, err)
		}
		if _, err := s.OpenDir(context.Background(), link); !errors.Is(err, store.ErrSymlink) {
			t.Errorf("Store.OpenDir(%s): %v; want store.ErrSymlink", link, err)
		}
		for _, file := range []string{link + "/secret.txt", link + "/in.txt"} {
			if r, err := d.Open(file); err == nil {
				r.Close()
				t.Errorf("Open(%s) succeeded through a link", file)
			}
			if _, err := d.ModTime(file); err == nil {
				t.Errorf("ModTime(%s) succeeded through a link", file)
			}
		}
	}
	r, err := d.Open("a/in.txt")
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil || string(data) != "x" {
		t.Errorf("Open(a/in.txt) read %q, %v", data, err)
	}
	if _, err := d.OpenDir("a/in.txt"); !errors.Is(err, store.ErrNotDir) {
		t.Errorf("OpenDir(a/in.txt): %v; want store.ErrNotDir", err)
	}
}
