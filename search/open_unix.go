//go:build unix

package search

import (
	"errors"
	"io"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// hostDir is an open host directory that files are opened relative to: the kernel then
// resolves only the path below it, not the whole path from "/" again for every file.
type hostDir struct {
	path string
	fd   int
}

func openHostDir(path string) (*hostDir, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &hostDir{path: path, fd: fd}, nil
}

func (d *hostDir) close() error { return syscall.Close(d.fd) }

// open opens the file at the slash-separated name below d for reading, with one system
// call: os.Open would add a stat and poller bookkeeping per file, which shows on trees of
// many small files. On Linux no symbolic link is followed on the way (see [openBeneath]),
// so a link swapped in after the walk saw a regular file or a directory cannot lead out;
// elsewhere only a final link is refused, and a directory on the way swapped for a link
// in that window is followed. The open cannot block on a FIFO swapped in (O_NONBLOCK).
func (d *hostDir) open(name string) (io.ReadCloser, error) {
	fd, err := openBeneath(d.fd, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &rawFile{fd: fd}, nil
}

// readDir lists the directory at the slash-separated name below d, sorted by name if
// sorted, opening it as open opens files.
func (d *hostDir) readDir(name string, sorted bool) ([]fs.DirEntry, error) {
	fd, err := openBeneath(d.fd, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	// The full host path, so that the entries' Info methods can find them.
	return listFD(fd, d.path+"/"+name, sorted)
}

// isLinkErr reports whether err may be what openBeneath says when a path passes through
// a symbolic link: ELOOP, EXDEV, or ENOTDIR for a directory opened with O_NOFOLLOW.
func isLinkErr(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ENOTDIR)
}

// openat opens name below dirfd without following a final symbolic link, retrying on
// EINTR.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags|unix.O_NOFOLLOW, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// rawFile is a file descriptor read with plain system calls.
type rawFile struct{ fd int }

func (f *rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error { return syscall.Close(f.fd) }
