//go:build unix

package main

import (
	"io/fs"
	"syscall"
)

// readHostFile reads the file at p whole, expecting size bytes (the walk's figure; the
// file may have changed since). It makes the system calls itself: os.Open sets a regular
// file non-blocking and back and offers it to the poller, which refuses it, four fcntl
// and an epoll_ctl per file, a sixth of an import's system calls.
func readHostFile(p string, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, size+1) // one more, so a file of the size expected ends in one read
	n := 0
	for {
		if n == len(buf) {
			buf = append(buf, make([]byte, len(buf))...) // it grew since the walk
		}
		m, err := syscall.Read(fd, buf[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: p, Err: err}
		case m == 0:
			return buf[:n], nil
		}
		n += m
	}
}
