//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/llmfs/llmfs/store"
)

// Mkdir implements [store.Store].
func (s *Store) Mkdir(ctx context.Context, name string) error {
	return s.doLink("mkdir", name, func(n string) error {
		if n == "." {
			return fs.ErrExist
		}
		return s.fs().Mkdir(n, 0o755)
	})
}

// Remove implements [store.Store].
func (s *Store) Remove(ctx context.Context, name string) error {
	return s.doLink("remove", name, func(n string) error {
		if n == "." {
			return fs.ErrInvalid
		}
		return s.fs().Remove(n)
	})
}

// RemoveIf implements [store.ConditionalRemover]. The check and the removal hold the
// path's lock that conditional writes take, so they are one step for this process; another
// process writing the file in between is not excluded (as for a conditional write).
func (s *Store) RemoveIf(ctx context.Context, name, hash string) error {
	return s.doLink("remove", name, func(n string) error {
		if n == "." {
			return store.ErrIsDir
		}
		defer lockPath(s.lockKey(n))()
		fi, err := s.fs().Lstat(n)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return store.ErrChanged
		}
		if err != nil {
			return err
		}
		if err := checkRegular(fi); err != nil {
			return err
		}
		h, err := s.hash(n)
		if err != nil {
			return err
		}
		if h != hash {
			return store.ErrChanged
		}
		return s.fs().Remove(n)
	})
}

// Rename implements [store.Store]. It never replaces newname: on Linux the kernel checks
// that in the same step (RENAME_NOREPLACE); elsewhere a file is hard-linked then unlinked.
func (s *Store) Rename(ctx context.Context, oldname, newname string) error {
	if !fs.ValidPath(newname) || newname == "." {
		return &fs.PathError{Op: "rename", Path: newname, Err: store.ErrInvalidName}
	}
	return s.doLink("rename", oldname, func(old string) error {
		if old == "." {
			return fs.ErrInvalid
		}
		if s.intoItself(old, newname) {
			return fs.ErrInvalid
		}
		err := s.renameNoReplace(old, newname)
		if s.root != nil && isEscape(err) {
			// The root refused newname's directory (do resolves only oldname): follow
			// its links as do would, and try once more through the root.
			if real, ok := s.resolveParent(newname); ok && real != newname {
				if s.intoItself(old, real) {
					return fs.ErrInvalid
				}
				err = s.renameNoReplace(old, real)
			}
		}
		return err
	})
}

// intoItself reports whether oldname is a directory and newname is it or below it: a move
// the kernel refuses with EINVAL, which renameNoReplace would take for a file system
// without RENAME_NOREPLACE. A file renamed to itself or below itself is left to the kernel,
// which says [fs.ErrExist] or [store.ErrNotDir], as the other stores do.
func (s *Store) intoItself(oldname, newname string) bool {
	if newname != oldname && !strings.HasPrefix(newname, oldname+"/") {
		return false
	}
	fi, err := s.fs().Lstat(oldname)
	return err == nil && fi.IsDir()
}

// resolveParent is resolve for the directory of name: name's last element is kept as it
// is, so a rename onto an existing link still finds the link and fails.
func (s *Store) resolveParent(name string) (string, bool) {
	dir, base := path.Split(name)
	if dir == "" {
		return name, true
	}
	real, ok := s.resolve(strings.TrimSuffix(dir, "/"))
	if !ok {
		return "", false
	}
	if real == "." {
		return base, true
	}
	return real + "/" + base, true
}
