//go:build !unix

package search

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// hostDir is a host directory that files are opened relative to.
type hostDir struct{ path string }

func openHostDir(path string) (*hostDir, error) { return &hostDir{path: path}, nil }

func (d *hostDir) close() error { return nil }

// modTime returns the modification time of name below d.
func (d *hostDir) modTime(name string) (time.Time, error) {
	fi, err := os.Lstat(filepath.Join(d.path, filepath.FromSlash(name)))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

func isLinkErr(err error) bool { return false }

// readDir lists the directory at the slash-separated name below d, sorted by name
// (whatever sorted says).
func (d *hostDir) readDir(name string, sorted bool) ([]fs.DirEntry, error) {
	return os.ReadDir(filepath.Join(d.path, filepath.FromSlash(name)))
}

// open opens the file at the slash-separated name below d for reading.
func (d *hostDir) open(name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(d.path, filepath.FromSlash(name)))
}

// dirHandle is an open directory: none here, where the walk lists by name.
type dirHandle struct{}

func (h *dirHandle) close() {}

// modTime is never asked for: no walk holds a dirHandle here.
func (h *dirHandle) modTime(base, name string) (time.Time, error) {
	return time.Time{}, errors.ErrUnsupported
}
