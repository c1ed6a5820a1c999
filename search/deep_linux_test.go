//go:build linux

package search

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestDeepTree walks a chain of 3,000 directories: each is opened relative to its
// parent's descriptor, so the walk neither resolves the whole path again at each level
// (quadratic in the depth) nor fails once the path passes PATH_MAX (4,096 bytes here).
func TestDeepTree(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	const depth = 3000
	for range depth {
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatal(err)
		}
		sub, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = sub
	}
	f, err := unix.Openat(fd, "deep.txt", unix.O_WRONLY|unix.O_CREAT, 0o644)
	if err == nil {
		_, err = unix.Write(f, []byte("needle\n"))
		unix.Close(f)
	}
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	s := hostStore(t, dir)
	res, err := Find(context.Background(), s, ".", FindOptions{Pattern: "*.txt"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("d/", depth) + "deep.txt"
	if len(res.Files) != 1 || res.Files[0].Path != want {
		t.Fatalf("find at depth %d: %d files; want the one at the bottom", depth, len(res.Files))
	}
	g, err := Grep(context.Background(), s, ".", GrepOptions{Pattern: "needle", Mode: Content, LineNumbers: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Entries) != 1 || g.Entries[0].Path != want || g.Entries[0].Text != "needle" {
		t.Fatalf("grep at depth %d: %d entries; want the line at the bottom", depth, len(g.Entries))
	}
}
