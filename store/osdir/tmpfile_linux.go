//go:build linux

package osdir

import (
	"errors"
	"fmt"
	"os"
	"path"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noTmpfile is set once linking an O_TMPFILE file into place has failed for want of a
// way to do it (no /proc, no privilege), so later writes go straight to named files.
var noTmpfile atomic.Bool

// newTemp starts the new content of name as an unnamed file (O_TMPFILE) in name's
// directory: until it is linked into place it has no name, so a crash leaves nothing
// behind. Where the file system has no unnamed files it falls back to a named one.
func (s *Store) newTemp(name string) (*tempFile, error) {
	if noTmpfile.Load() || s.scratch {
		return s.newNamedTemp(name)
	}
	dir, base := path.Split(name)
	d, err := s.openDir(dir)
	if err != nil {
		return nil, err
	}
	// O_RDWR, not O_WRONLY: should linking fail, commit reads the content back.
	fd, err := unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o644)
	for err == unix.EINTR {
		fd, err = unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o644)
	}
	if err != nil {
		d.Close()
		switch {
		case errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.EISDIR), errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS):
			return s.newNamedTemp(name) // the file system has no unnamed files
		}
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return &tempFile{File: os.NewFile(uintptr(fd), name), s: s, target: name, dir: d, base: base}, nil
}

// commitUnnamed gives an unnamed temporary file its place. An exclusive one is linked to
// the target's name, which fails if the name exists; otherwise it is linked to a
// temporary name and renamed over the target, both relative to the directory opened at
// the start, so that the named file exists only for the two calls between.
func (t *tempFile) commitUnnamed(exclusive bool) error {
	err := t.link(exclusive)
	if errors.Is(err, errNoLink) {
		noTmpfile.Store(true)
		return t.toNamed(exclusive)
	}
	return err
}

// errNoLink says that an unnamed file cannot be given a name on this system.
var errNoLink = errors.New("cannot link an O_TMPFILE file")

func (t *tempFile) link(exclusive bool) error {
	dfd := int(t.dir.Fd())
	if exclusive {
		return t.linkAt(dfd, t.base)
	}
	var tmp string
	var err error
	for i := 0; ; i++ {
		tmp = tempName(t.base)
		err = t.linkAt(dfd, tmp)
		if !errors.Is(err, os.ErrExist) || i == 10 {
			break
		}
	}
	if err != nil {
		return err
	}
	if err := unix.Renameat(dfd, tmp, dfd, t.base); err != nil {
		unix.Unlinkat(dfd, tmp, 0)
		return &os.PathError{Op: "rename", Path: t.target, Err: err}
	}
	return nil
}

// linkAt links the unnamed file to base in the directory dfd: with AT_EMPTY_PATH, which
// needs a privilege, or else through its /proc/self/fd name; when neither is possible it
// says [errNoLink].
func (t *tempFile) linkAt(dfd int, base string) error {
	fd := int(t.File.Fd())
	err := unix.Linkat(fd, "", dfd, base, unix.AT_EMPTY_PATH)
	if err == unix.ENOENT || err == unix.EPERM {
		err = unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), dfd, base, unix.AT_SYMLINK_FOLLOW)
	}
	switch {
	case err == nil:
		return nil
	case err == unix.EEXIST:
		return &os.PathError{Op: "link", Path: t.target, Err: os.ErrExist}
	case err == unix.ENOENT || err == unix.EPERM || err == unix.EACCES && procUnreadable():
		return errNoLink
	}
	return &os.PathError{Op: "link", Path: t.target, Err: err}
}

func procUnreadable() bool {
	_, err := os.Stat("/proc/self/fd")
	return err != nil
}

// toNamed copies an unnamed temporary file's content to a named one, which then takes
// its place, and commits that.
func (t *tempFile) toNamed(exclusive bool) error {
	named, err := t.s.newNamedTemp(t.target)
	if err != nil {
		return err
	}
	defer named.discard()
	fi, err := t.File.Stat()
	if err == nil {
		_, err = t.File.Seek(0, 0)
	}
	if err == nil {
		_, err = named.File.ReadFrom(t.File)
	}
	if err == nil {
		err = named.File.Chmod(fi.Mode().Perm())
	}
	if err == nil {
		err = named.sync()
	}
	if err == nil {
		err = named.commit(exclusive)
	}
	return err
}
