package osdir

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// The batch's calls on Linux: each directory is opened once a batch (through the root,
// as every other call), and a file's checks and its temporary file are calls relative to
// it, without following a last symbolic link: 14 system calls a file where WriteFile
// makes about 30 (each of its calls through the root opens the directory again).

// dirOf returns the batch's handle on target's directory and target's last element.
func (b *writeBatch) dirOf(target string) (*os.File, string, error) {
	dir, base := path.Split(target)
	if d, ok := b.open[dir]; ok {
		return d, base, nil
	}
	d, err := b.s.openDir(dir)
	if err != nil {
		return nil, "", err
	}
	b.open[dir] = d
	return d, base, nil
}

// lstat is Lstat of target, relative to its directory.
func (b *writeBatch) lstat(target string) (fs.FileInfo, error) {
	d, base, err := b.dirOf(target)
	if err != nil {
		return nil, err
	}
	fi := &statInfo{name: base}
	if err := lstatAt(int(d.Fd()), base, &fi.st); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: target, Err: err}
	}
	return fi, nil
}

// hash is [Store.hash] of target, relative to its directory; a last symbolic link is not
// followed (the caller resolved target, and found a regular file there).
func (b *writeBatch) hash(target string) (string, error) {
	d, base, err := b.dirOf(target)
	if err != nil {
		return "", err
	}
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(int(d.Fd()), base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return "", &fs.PathError{Op: "open", Path: target, Err: err}
	}
	defer unix.Close(fd)
	h := sha256.New()
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return "", &fs.PathError{Op: "read", Path: target, Err: err}
		}
		if n == 0 {
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		h.Write(buf[:n])
	}
}

// newTemp is [Store.newTemp] in the batch's handle on target's directory.
func (b *writeBatch) newTemp(target string) (*tempFile, error) {
	if noTmpfile.Load() {
		return b.s.newTemp(target)
	}
	d, base, err := b.dirOf(target)
	if err != nil {
		return nil, err
	}
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o644)
		return err
	})
	if err != nil {
		switch {
		case errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.EISDIR), errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS):
			return b.s.newNamedTemp(target) // the file system has no unnamed files
		}
		return nil, &os.PathError{Op: "open", Path: target, Err: err}
	}
	return &tempFile{File: os.NewFile(uintptr(fd), target), s: b.s, target: target, dir: d, base: base}, nil
}

// release discards t, leaving the batch's directory handle open.
func (b *writeBatch) release(t *tempFile) {
	if dir, _ := path.Split(t.target); t.dir != nil && t.dir == b.open[dir] {
		t.dir = nil
	}
	t.discard()
}

// closeDirs closes the batch's directory handles.
func (b *writeBatch) closeDirs() {
	for dir, d := range b.open {
		d.Close()
		delete(b.open, dir)
	}
}

func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); err != unix.EINTR {
			return err
		}
	}
}
