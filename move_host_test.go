//go:build linux

package llmfs_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestFileMove_CrossDeviceOnHost moves a file from the test's temporary directory to
// /dev/shm, a different file system on most Linux machines, through a relaxed workspace:
// the kernel's EXDEV takes the copy-then-delete path for real.
func TestFileMove_CrossDeviceOnHost(t *testing.T) {
	src := t.TempDir()
	shm, err := os.MkdirTemp("/dev/shm", "llmfs-test-")
	if err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	defer os.RemoveAll(shm)
	var a, b syscall.Stat_t
	if syscall.Stat(src, &a) != nil || syscall.Stat(shm, &b) != nil || a.Dev == b.Dev {
		t.Skip("/dev/shm is on the same device as the temporary directory")
	}
	w, err := host.Open(&llmfs.Options{Root: src, Relaxed: true})
	noErr(t, err)
	put(t, w, "src.txt", "across devices\n")
	dst := filepath.Join(shm, "sub", "dst.txt")
	res, err := w.Move(bg, "src.txt", dst)
	noErr(t, err)
	if res.Destination != dst {
		t.Errorf("Destination = %q, want %q", res.Destination, dst)
	}
	if b, err := os.ReadFile(dst); err != nil || string(b) != "across devices\n" {
		t.Errorf("destination = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(src, "src.txt")); !os.IsNotExist(err) {
		t.Errorf("the source still exists: %v", err)
	}
}

// TestFileMove_ThroughSymlinksInsideRoot moves files into and out of directories reached
// through relative and absolute links that stay inside the root.
func TestFileMove_ThroughSymlinksInsideRoot(t *testing.T) {
	dir := t.TempDir()
	w, err := host.Open(&llmfs.Options{Root: dir})
	noErr(t, err)
	put(t, w, "real/keep.txt", "k")
	put(t, w, "a.txt", "a")
	noErr(t, os.Symlink(filepath.Join(w.Root(), "real"), filepath.Join(dir, "abs")))
	noErr(t, os.Symlink("real", filepath.Join(dir, "rel")))
	for _, step := range [][2]string{{"a.txt", "abs/a.txt"}, {"abs/a.txt", "rel/b.txt"}, {"rel/b.txt", "abs/new/c.txt"}, {"real/new/c.txt", "d.txt"}} {
		if _, err := w.Move(bg, step[0], step[1]); err != nil {
			t.Fatalf("Move(%s, %s): %v", step[0], step[1], err)
		}
	}
	if got := mustRaw(t, w, "d.txt"); got != "a" {
		t.Errorf("d.txt = %q", got)
	}
	if _, err := w.Copy(bg, "d.txt", "abs/copy.txt"); err != nil {
		t.Errorf("Copy into an absolute link: %v", err)
	}
	if got := mustRaw(t, w, "real/copy.txt"); got != "a" {
		t.Errorf("real/copy.txt = %q", got)
	}
}
