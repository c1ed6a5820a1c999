//go:build linux

package osdir

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"

	"golang.org/x/sys/unix"
)

// renameNoReplace moves oldname to newname with renameat2(RENAME_NOREPLACE) on the two
// parent directories, each opened through the store (so through the root in sandbox mode).
func (s *Store) renameNoReplace(oldname, newname string) error {
	odir, obase := path.Split(oldname)
	ndir, nbase := path.Split(newname)
	od, err := s.openDir(odir)
	if err != nil {
		return err
	}
	defer od.Close()
	nd, err := s.openDir(ndir)
	if err != nil {
		return err
	}
	defer nd.Close()
	err = unix.Renameat2(int(od.Fd()), obase, int(nd.Fd()), nbase, unix.RENAME_NOREPLACE)
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSYS) {
		// The file system does not support the flag.
		return s.renameChecked(oldname, newname)
	}
	if err != nil {
		return &fs.PathError{Op: "rename", Path: oldname, Err: err}
	}
	return nil
}

func (s *Store) openDir(dir string) (*os.File, error) {
	if dir == "" {
		dir = "."
	}
	return s.fs().OpenFile(path.Clean(dir), os.O_RDONLY|syscall.O_DIRECTORY, 0)
}
