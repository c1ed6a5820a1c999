//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Links and attributes on the host: real symbolic links, link(2), chmod and utimensat, each
// through the root in sandbox mode, so none of them reaches outside the directory. A link
// is made as written, whatever it points at: following it is what the root refuses.

var (
	_ store.Symlinker  = (*Store)(nil)
	_ store.HardLinker = (*Store)(nil)
	_ store.AttrSetter = (*Store)(nil)
)

// Symlink implements [store.Symlinker].
func (s *Store) Symlink(ctx context.Context, target, name string) error {
	if target == "" {
		return &fs.PathError{Op: "symlink", Path: name, Err: fs.ErrInvalid}
	}
	return s.doLink("symlink", name, func(n string) error { return s.fs().Symlink(target, n) })
}

// Readlink implements [store.Symlinker].
func (s *Store) Readlink(ctx context.Context, name string) (string, error) {
	var target string
	err := s.doLink("readlink", name, func(n string) (err error) {
		target, err = s.fs().Readlink(n)
		return err
	})
	if errors.Is(err, syscall.EINVAL) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return target, err
}

// Link implements [store.HardLinker]: both names are inside the root.
func (s *Store) Link(ctx context.Context, oldname, newname string) error {
	if !fs.ValidPath(oldname) {
		return &fs.PathError{Op: "link", Path: oldname, Err: store.ErrInvalidName}
	}
	return s.doLink("link", newname, func(n string) error { return s.fs().Link(oldname, n) })
}

// Chmod implements [store.AttrSetter].
func (s *Store) Chmod(ctx context.Context, name string, perm fs.FileMode) error {
	return s.do("chmod", name, func(n string) error { return s.fs().Chmod(n, perm&fs.ModePerm) })
}

// Chtimes implements [store.AttrSetter]; the access time is left as it is.
func (s *Store) Chtimes(ctx context.Context, name string, mtime time.Time) error {
	return s.do("chtimes", name, func(n string) error { return s.fs().Chtimes(n, time.Time{}, mtime) })
}
