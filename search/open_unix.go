//go:build unix

package search

import (
	"io"
	"io/fs"
	"syscall"
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
// many small files. It refuses a final symbolic link (O_NOFOLLOW), so a link swapped in
// after the walk saw a regular file is not followed, and it cannot block on a FIFO
// swapped in either (O_NONBLOCK).
func (d *hostDir) open(name string) (io.ReadCloser, error) {
	for {
		fd, err := syscall.Openat(d.fd, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &rawFile{fd: fd}, nil
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
