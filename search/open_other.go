//go:build !unix

package search

import (
	"io"
	"os"
	"path/filepath"
)

// hostDir is a host directory that files are opened relative to.
type hostDir struct{ path string }

func openHostDir(path string) (*hostDir, error) { return &hostDir{path: path}, nil }

func (d *hostDir) close() error { return nil }

// open opens the file at the slash-separated name below d for reading.
func (d *hostDir) open(name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(d.path, filepath.FromSlash(name)))
}
