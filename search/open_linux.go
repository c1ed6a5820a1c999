//go:build linux

package search

import (
	"io/fs"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel has said it has no openat2 (before Linux 5.6).
var noOpenat2 atomic.Bool

// openBeneath opens name below the directory dirfd with openat2, which makes the kernel
// refuse any path that would leave the directory or pass through a symbolic link: the
// same guarantee os.Root gives, at the cost of one system call. Without openat2 it falls
// back to openat, which refuses only a final symbolic link.
func openBeneath(dirfd int, name string, flags int) (int, error) {
	if !noOpenat2.Load() {
		how := unix.OpenHow{
			Flags:   uint64(flags) | unix.O_NOFOLLOW,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		}
		for {
			fd, err := unix.Openat2(dirfd, name, &how)
			if err == unix.EINTR || err == unix.EAGAIN {
				continue
			}
			if err != unix.ENOSYS {
				return fd, err
			}
			noOpenat2.Store(true)
			break
		}
	}
	return openat(dirfd, name, flags)
}

// modTime returns the modification time of name below d, without following a final
// symbolic link, by a stat relative to the descriptor of name's directory. That directory is
// opened beneath d (openBeneath), never through a symbolic link: fstatat alone follows links
// on the way, so a directory swapped for a link to outside the root after the walk listed it
// would have had a file outside the root stat'ed.
func (d *hostDir) modTime(name string) (time.Time, error) {
	dirfd, base, err := d.parentOf(name)
	if err != nil {
		return time.Time{}, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if dirfd == d.fd {
		if i := strings.LastIndexByte(base, '/'); i >= 0 {
			if dirfd, err = openBeneath(d.fd, base[:i], dirFlags); err != nil {
				return time.Time{}, &fs.PathError{Op: "stat", Path: name, Err: err}
			}
			base = base[i+1:]
		}
	}
	if dirfd != d.fd {
		defer unix.Close(dirfd)
	}
	return statModTime(dirfd, base, name)
}
