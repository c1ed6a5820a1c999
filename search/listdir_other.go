//go:build unix && !linux

package search

import (
	"io/fs"
	"os"
	"slices"
	"strings"
)

// listFD lists the open directory fd, whose host path is path, and closes fd. The
// listing is sorted by name (whatever sorted says).
func listFD(fd int, path string, sorted bool) ([]fs.DirEntry, error) {
	f := os.NewFile(uintptr(fd), path)
	des, err := f.ReadDir(-1)
	f.Close()
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des, err
}
