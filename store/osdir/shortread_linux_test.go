package osdir

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
	"golang.org/x/sys/unix"
)

// readOnce opens dir/name through directory handles from the store's root and reads it
// once into a buffer larger than the file.
func readOnce(t *testing.T, s *Store, dir, name string) (int, error) {
	t.Helper()
	root, err := s.OpenDir(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	d, err := root.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r, err := d.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.Read(make([]byte, 4096))
}

// On a local disk file system a file's short read is its end: one read returns the bytes
// with io.EOF (issue 40: a grep saves the read that only returned 0). Links are refused
// on that path as on the other.
func TestShortReadEOFLocal(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, dirFlags, 0)
	if err != nil {
		t.Fatal(err)
	}
	local := localFS(fd)
	unix.Close(fd)
	if !local {
		t.Skip("the temporary directory is on no file system localFS knows")
	}
	mustWrite(t, filepath.Join(dir, "sub", "f.txt"), "hello\n")
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := readOnce(t, s, "sub", "f.txt"); n != 6 || err != io.EOF {
		t.Errorf("read %d, %v; want 6 bytes and io.EOF", n, err)
	}
	root, err := s.OpenDir(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := root.OpenDir("link"); !errors.Is(err, store.ErrSymlink) {
		t.Errorf("OpenDir of a link: %v, want ErrSymlink", err)
	}

	// Without openat2 no subdirectory is known to be on the root's file system.
	was := noOpenat2.Swap(true)
	defer noOpenat2.Store(was)
	if n, err := readOnce(t, s, "sub", "f.txt"); n != 6 || err != nil {
		t.Errorf("without openat2: read %d, %v; want 6 bytes and no error yet", n, err)
	}
}

// Below a mount point (here a tmpfs, which would qualify on its own) a short read is
// not taken for the end: the walk cannot tell what is mounted there without asking, and
// /proc or a FUSE server return short reads before the end.
func TestShortReadEOFNotAcrossMounts(t *testing.T) {
	dir := t.TempDir()
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("none", mnt, "tmpfs", 0, ""); err != nil {
		t.Skip("cannot mount a tmpfs here:", err)
	}
	t.Cleanup(func() { unix.Unmount(mnt, unix.MNT_DETACH) })
	mustWrite(t, filepath.Join(mnt, "f.txt"), "hello\n")
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := readOnce(t, s, "mnt", "f.txt"); n != 6 || err != nil {
		t.Errorf("below a mount point: read %d, %v; want 6 bytes and no error yet", n, err)
	}
}

func mustWrite(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
