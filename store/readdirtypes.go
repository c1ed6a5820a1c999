package store

import (
	"context"
	"io/fs"
)

// A TypeLister is a Store whose plain [Store.ReadDir] describes every entry as it lists
// (os.Root's does: an lstat per entry) and that can list a directory with only what the
// directory itself records, each entry's name and type.
type TypeLister interface {
	Store
	// ReadDirTypes lists the named directory as ReadDir does, sorted by name, with each
	// entry's Name and Type from the directory alone; an entry's Info costs a call to the
	// store, and may fail if the entry has gone since.
	ReadDirTypes(ctx context.Context, name string) ([]fs.DirEntry, error)
}

// ReadDirTypes lists the named directory with s's [TypeLister] if it has one, and with
// [Store.ReadDir] otherwise. Callers that need only names and types use it: on a host
// directory it saves a stat per entry.
func ReadDirTypes(ctx context.Context, s Store, name string) ([]fs.DirEntry, error) {
	if t, ok := s.(TypeLister); ok {
		return t.ReadDirTypes(ctx, name)
	}
	return s.ReadDir(ctx, name)
}
