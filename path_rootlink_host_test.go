//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// Issue 13.1: a root reached through a symbolic link refused absolute paths spelled
// through it (seed 002: the resolved real path must lie under the root, and it does).
// Both spellings of the root work, for the root given and for the current directory.
func TestRootThroughSymlinkAcceptsItsPaths(t *testing.T) {
	top, err := filepath.EvalSymlinks(t.TempDir())
	noErr(t, err)
	real, link := filepath.Join(top, "real"), filepath.Join(top, "link")
	noErr(t, os.Mkdir(real, 0o755))
	noErr(t, os.WriteFile(filepath.Join(real, "f.txt"), []byte("hi\n"), 0o644))
	noErr(t, os.Symlink("real", link))
	noErr(t, os.WriteFile(filepath.Join(top, "outside.txt"), []byte("out\n"), 0o644))

	check := func(t *testing.T, w *llmfs.Workspace) {
		for _, p := range []string{link + "/f.txt", real + "/f.txt", "f.txt", link + "/../link/f.txt"} {
			res, err := w.Read(bg, p, llmfs.ReadOptions{})
			if err != nil || res.Content != "hi\n" {
				t.Errorf("Read(%s) = %v, %v", p, res, err)
			}
		}
		_, err := w.Write(bg, link+"/sub/g.txt", "g\n", llmfs.WriteOptions{})
		noErr(t, err)
		if data, _ := os.ReadFile(filepath.Join(real, "sub", "g.txt")); string(data) != "g\n" {
			t.Errorf("write through the link's spelling: %q", data)
		}
		entries, err := w.List(bg, link)
		noErr(t, err)
		if len(entries) != 2 {
			t.Errorf("List(%s) = %v", link, entries)
		}
		if !w.Paths().Within(link+"/x") || !w.Paths().Within(real) || w.Paths().Within(top+"/outside.txt") || w.Paths().Within(link+"-evil") {
			t.Error("Within is wrong")
		}
		if got := w.Paths().Rel(link + "/sub/g.txt"); got != "sub/g.txt" {
			t.Errorf("Rel = %q", got)
		}
		// Still confined: the link's spelling with ".." out of it is outside.
		for _, p := range []string{link + "/../outside.txt", top + "/outside.txt"} {
			_, err := w.Read(bg, p, llmfs.ReadOptions{})
			wantCode(t, err, llmfs.CodeInvalidPath)
		}
		noErr(t, os.Remove(filepath.Join(real, "sub", "g.txt")))
		noErr(t, os.Remove(filepath.Join(real, "sub")))
	}
	t.Run("root", func(t *testing.T) {
		w, err := host.Open(&llmfs.Options{Root: link})
		noErr(t, err)
		check(t, w)
	})
	t.Run("relative root", func(t *testing.T) {
		t.Chdir(top)
		w, err := host.Open(&llmfs.Options{Root: "link"})
		noErr(t, err)
		check(t, w)
	})
	t.Run("current directory", func(t *testing.T) {
		t.Chdir(link)
		t.Setenv("PWD", link) // as a shell that did cd link sets it
		w, err := host.Open(nil)
		noErr(t, err)
		check(t, w)
	})
}
