//go:build !js && !wasip1

package osdir

import (
	"errors"
	"io/fs"
)

// renameChecked is the portable rename without replacement: a file is hard-linked to its
// new name (which fails if the name exists) and then unlinked; a directory is checked, then
// renamed, which leaves a short window in which a new entry at newname could be replaced.
func (s *Store) renameChecked(oldname, newname string) error {
	fi, err := s.fs().Lstat(oldname)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		if err := s.fs().Link(oldname, newname); err == nil {
			return s.fs().Remove(oldname)
		} else if errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	if _, err := s.fs().Lstat(newname); err == nil {
		return fs.ErrExist
	}
	return s.fs().Rename(oldname, newname)
}
