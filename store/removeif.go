package store

import (
	"context"
	"errors"
	"io/fs"
)

// A ConditionalRemover is a Store that can remove a file only while it holds a given
// content: the remove counterpart of [WriteOptions.IfMatch], for callers (undo, restore,
// patch) that must not lose a file rewritten since they looked at it.
type ConditionalRemover interface {
	Store
	// RemoveIf removes the regular file name only if its content hashes (see [Hash]) to
	// hash, and otherwise fails with [ErrChanged] and removes nothing, also when the file
	// no longer exists. A directory fails with [ErrIsDir], a symbolic link or special file
	// with [ErrNotRegular]. The check and the removal are one atomic step with respect to
	// every other conditional write and remove through the same backend.
	RemoveIf(ctx context.Context, name, hash string) error
}

// RemoveIf removes the file name from s if it holds the content with hash, using s's
// [ConditionalRemover] if it has one. Otherwise it looks, then removes: two steps, between
// which another writer may get in.
func RemoveIf(ctx context.Context, s Store, name, hash string) error {
	if c, ok := s.(ConditionalRemover); ok {
		return c.RemoveIf(ctx, name, hash)
	}
	fi, err := Lstat(ctx, s, name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotDir):
		return &fs.PathError{Op: "remove", Path: name, Err: ErrChanged}
	case err != nil:
		return err
	case fi.IsDir():
		return &fs.PathError{Op: "remove", Path: name, Err: ErrIsDir}
	case !fi.Mode().IsRegular():
		return &fs.PathError{Op: "remove", Path: name, Err: ErrNotRegular}
	}
	f, err := s.Open(ctx, name)
	if err != nil {
		return err
	}
	h, err := HashReader(f)
	f.Close()
	if err != nil {
		return err
	}
	if h != hash {
		return &fs.PathError{Op: "remove", Path: name, Err: ErrChanged}
	}
	return s.Remove(ctx, name)
}
