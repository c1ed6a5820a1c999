//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestDirectoryList_Symlinks checks that a link is listed as what it points to, and that
// links that dangle or leave the root, and FIFOs, are left out.
func TestDirectoryList_Symlinks(t *testing.T) {
	site := newAttackSite(t)
	w, err := host.Open(&llmfs.Options{Root: site.root})
	noErr(t, err)
	noErr(t, os.Symlink("a.txt", filepath.Join(site.root, "ln-a")))
	noErr(t, os.Symlink("dir", filepath.Join(site.root, "ln-dir")))
	noErr(t, mkfifo(filepath.Join(site.root, "dir", "fifo")))
	entries, err := w.List(bg, ".")
	noErr(t, err)
	got := map[string]llmfs.Entry{}
	for _, e := range entries {
		got[e.Name] = e
	}
	if e := got["ln-a"]; e.Type != llmfs.TypeFile || e.Size != int64(len("inside a\n")) {
		t.Errorf("ln-a = %+v, want the file it points to", e)
	}
	if e := got["ln-dir"]; e.Type != llmfs.TypeDirectory || e.Size != 0 {
		t.Errorf("ln-dir = %+v, want a directory", e)
	}
	for _, name := range []string{"ln-secret", "ln-outdir", "ln-dangling", "ln-evil", "ln-root-up", "fifo"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s is listed", name)
		}
	}
	entries, err = w.List(bg, "ln-dir")
	noErr(t, err)
	for _, e := range entries {
		if e.Name == "fifo" || e.Name == "ln-up" || e.Name == "ln-rel-secret" {
			t.Errorf("List(ln-dir) shows %s", e.Name)
		}
	}
}

// TestListNames_Symlinks checks that ListNames leaves out and follows what List does.
func TestListNames_Symlinks(t *testing.T) {
	site := newAttackSite(t)
	w, err := host.Open(&llmfs.Options{Root: site.root})
	noErr(t, err)
	noErr(t, os.Symlink("a.txt", filepath.Join(site.root, "ln-a")))
	noErr(t, os.Symlink("dir", filepath.Join(site.root, "ln-dir")))
	noErr(t, mkfifo(filepath.Join(site.root, "dir", "fifo")))
	for _, dir := range []string{".", "dir", "ln-dir"} {
		list, err := w.List(bg, dir)
		noErr(t, err)
		names, err := w.ListNames(bg, dir)
		noErr(t, err)
		if want := namesOf(list); !slices.Equal(names, want) {
			t.Errorf("ListNames(%q) = %v, want %v", dir, names, want)
		}
	}
}
