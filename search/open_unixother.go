//go:build unix && !linux

package search

import (
	"os"
	"path/filepath"
	"time"
)

// openBeneath opens name below the directory dirfd, refusing a final symbolic link.
func openBeneath(dirfd int, name string, flags int) (int, error) {
	return openat(dirfd, name, flags)
}

// modTime returns the modification time of name below d, without following a final
// symbolic link.
func (d *hostDir) modTime(name string) (time.Time, error) {
	fi, err := os.Lstat(filepath.Join(d.path, filepath.FromSlash(name)))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}
