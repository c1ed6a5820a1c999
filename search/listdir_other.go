//go:build unix && !linux

package search

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// listFD lists the open directory fd, whose host path is path, sorted by name (whatever
// sorted says); the caller closes fd.
func listFD(fd int, path string, sorted bool) ([]fs.DirEntry, error) {
	// A duplicate, since the os.File closes what it holds and the caller closes fd.
	dup, err := syscall.Dup(fd)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(dup), path)
	des, err := f.ReadDir(-1)
	f.Close()
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des, err
}
