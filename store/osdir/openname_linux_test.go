package osdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openName opens a name without allocating, and answers as unix.Openat does: the file,
// ELOOP for a link with O_NOFOLLOW, ENOENT, EINVAL for a NUL, and a long name opened too.
func TestOpenName(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("n", 255)
	for _, n := range []string{"f.txt", long} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("f.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	dirfd, err := unix.Open(dir, dirFlags, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dirfd)
	const flags = unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW
	for _, n := range []string{"f.txt", long} {
		fd, err := openName(dirfd, n, flags)
		if err != nil {
			t.Fatalf("%.10s: %v", n, err)
		}
		unix.Close(fd)
	}
	for n, want := range map[string]error{"link": unix.ELOOP, "none": unix.ENOENT, "a\x00b": unix.EINVAL} {
		if _, err := openName(dirfd, n, flags); err != want {
			t.Errorf("%q: %v, want %v", n, err, want)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		fd, err := openName(dirfd, "f.txt", flags)
		if err != nil {
			t.Fatal(err)
		}
		unix.Close(fd)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per open, want 0", allocs)
	}
}
