//go:build unix

package search

import (
	"io"
	"io/fs"
	"syscall"
)

// rawFile is a file opened with one system call: os.Open would add a stat and poller
// bookkeeping per file, which shows on trees of many small files.
type rawFile struct{ fd int }

// openHost opens the host file at path for reading. It refuses a final symbolic link
// (O_NOFOLLOW), so a link swapped in after the walk saw a regular file is not followed,
// and it cannot block on a FIFO swapped in either (O_NONBLOCK).
func openHost(path string) (io.ReadCloser, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return &rawFile{fd: fd}, nil
	}
}

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
