//go:build unix

package search

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestListFDMatchesReadDir checks the host listing against os.ReadDir: the same names and
// types, sorted when asked and the same set when not, for a directory larger than one
// buffer of records.
func TestListFDMatchesReadDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 1500 {
		name := filepath.Join(dir, fmt.Sprintf("entry-with-a-long-name-%04d", i))
		var err error
		switch i % 3 {
		case 0:
			err = os.WriteFile(name, nil, 0o644)
		case 1:
			err = os.Mkdir(name, 0o755)
		default:
			err = os.Symlink("target", name)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	render := func(des []os.DirEntry) []string {
		var out []string
		for _, de := range des {
			out = append(out, fmt.Sprintf("%s %v", de.Name(), de.Type()))
		}
		return out
	}
	for _, sorted := range []bool{true, false} {
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := listFD(fd, dir, sorted)
		syscall.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		g, w := render(got), render(want)
		if !sorted {
			slices.Sort(g)
		}
		if !slices.Equal(g, w) {
			t.Errorf("listFD(sorted %v): %d entries, os.ReadDir %d; first %q vs %q", sorted, len(g), len(w), g[:min(3, len(g))], w[:3])
		}
	}
}
