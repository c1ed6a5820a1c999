package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"time"
)

// ErrSymlink reports that a [DirHandle] met a symbolic link on the way to a name: it never
// follows one. A caller that means to follow links resolves the name ([RealName]) and
// asks again.
var ErrSymlink = errors.New("symbolic link on the way")

// A DirHandle is a directory of a store held open, for walks: names below it are reached
// from it, never resolved from the store's root again, and no symbolic link on the way is
// followed, so a directory swapped for a link while a walk runs cannot lead it anywhere
// else. Names given to its methods are slash-separated paths below it (valid store names,
// "." for the directory itself). A DirHandle is safe for concurrent use; Close it when
// done.
type DirHandle interface {
	// ReadDir lists the directory with each entry's Name and Type, sorted by name unless
	// anyOrder. An entry's Info may cost a call, and fail if the entry has gone since. The
	// store's own files (a host store's temporary files) are left out.
	ReadDir(anyOrder bool) ([]fs.DirEntry, error)
	// OpenDir opens the directory name below this one. It fails with [ErrSymlink] if an
	// element of name is a symbolic link, and [ErrNotDir] if one is not a directory.
	OpenDir(name string) (DirHandle, error)
	// Open opens the regular file name below this one for reading, following no symbolic
	// link ([ErrSymlink]) and without blocking on a special file.
	Open(name string) (io.ReadCloser, error)
	// ModTime returns the modification time of name below this one, without following
	// any symbolic link on the way or at the end.
	ModTime(name string) (time.Time, error)
	// Close releases the directory. Entries already listed stay usable.
	Close() error
}

// A DirOpener is a Store that opens its directories as [DirHandle] values. Host stores
// (store/osdir) implement it; their walks then open each directory relative to its
// parent, by descriptor, without following links.
type DirOpener interface {
	Store
	// OpenDir opens the directory name as [DirHandle.OpenDir] does below the store's root.
	OpenDir(ctx context.Context, name string) (DirHandle, error)
}

// OpenDir opens the directory name of s with s's [DirOpener] if it has one, and otherwise
// returns a DirHandle that serves each call with the plain [Store] methods by full name (a
// store without a DirOpener confines its names itself).
func OpenDir(ctx context.Context, s Store, name string) (DirHandle, error) {
	if d, ok := s.(DirOpener); ok {
		return d.OpenDir(ctx, name)
	}
	sd := storeDir{ctx: ctx, s: s, name: name}
	if err := sd.check(name); err != nil {
		return nil, err
	}
	return sd, nil
}

// storeDir is a [DirHandle] through the plain Store methods.
type storeDir struct {
	ctx  context.Context
	s    Store
	name string
}

func (d storeDir) join(name string) string {
	switch {
	case name == ".":
		return d.name
	case d.name == ".":
		return name
	}
	return d.name + "/" + name
}

// check makes sure, where the store has symbolic links, that the store name full is a
// directory and not a link. Without links, a name that is no directory fails at ReadDir.
func (d storeDir) check(full string) error {
	if _, ok := d.s.(Lstater); !ok {
		return nil
	}
	fi, err := Lstat(d.ctx, d.s, full)
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return &fs.PathError{Op: "opendir", Path: full, Err: ErrSymlink}
	case !fi.IsDir():
		return &fs.PathError{Op: "opendir", Path: full, Err: ErrNotDir}
	}
	return nil
}

func (d storeDir) ReadDir(anyOrder bool) ([]fs.DirEntry, error) {
	return d.s.ReadDir(d.ctx, d.name)
}

func (d storeDir) OpenDir(name string) (DirHandle, error) {
	full := d.join(name)
	if err := d.check(full); err != nil {
		return nil, err
	}
	return storeDir{ctx: d.ctx, s: d.s, name: full}, nil
}

func (d storeDir) Open(name string) (io.ReadCloser, error) {
	full := d.join(name)
	if _, ok := d.s.(Lstater); ok {
		if fi, err := Lstat(d.ctx, d.s, full); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: full, Err: ErrSymlink}
		}
	}
	return d.s.Open(d.ctx, full)
}

func (d storeDir) ModTime(name string) (time.Time, error) {
	fi, err := Lstat(d.ctx, d.s, d.join(name))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

func (d storeDir) Close() error { return nil }
