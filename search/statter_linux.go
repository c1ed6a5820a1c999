//go:build linux

package search

import (
	"io/fs"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// dirStatter looks up modification times below d as [hostDir.modTime] does, keeping the
// last parent directory open: a find stats its matches in walk order, so most share the
// directory of the one before, and opening it beneath d for each (to follow no link on
// the way) made a find of the Linux tree's *.c files a fifth more costly.
type dirStatter struct {
	d      *hostDir
	parent string
	fd     int // parent's descriptor; -1 when none is open
}

func (d *hostDir) statter() modTimer { return &dirStatter{d: d, fd: -1} }

func (s *dirStatter) modTime(name string) (time.Time, error) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 || len(name) >= longName {
		return s.d.modTime(name)
	}
	if s.fd < 0 || name[:i] != s.parent {
		s.close()
		fd, err := openBeneath(s.d.fd, name[:i], dirFlags)
		if err != nil {
			return time.Time{}, &fs.PathError{Op: "stat", Path: name, Err: err}
		}
		s.fd, s.parent = fd, name[:i]
	}
	return statModTime(s.fd, name[i+1:], name)
}

func (s *dirStatter) close() {
	if s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
}
