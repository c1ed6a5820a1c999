//go:build !js && !wasip1

package osdir

import (
	"context"
	"io/fs"
	"path"
)

// ReadDirTypes implements [store.TypeLister]. A directory opened in an os.Root loads every
// entry's information as it is read (an lstat each); this reads the names and types the
// directory holds (getdents on Linux) and describes an entry only when asked.
func (s *Store) ReadDirTypes(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return s.listDir(name, s.readDirTypes)
}

// typedEntry is a directory entry known by its name and type; Info asks the store.
type typedEntry struct {
	s         *Store
	dir, name string
	typ       fs.FileMode
}

func (e *typedEntry) Name() string               { return e.name }
func (e *typedEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *typedEntry) Type() fs.FileMode          { return e.typ }
func (e *typedEntry) Info() (fs.FileInfo, error) { return e.s.fs().Lstat(path.Join(e.dir, e.name)) }
func (e *typedEntry) String() string             { return fs.FormatDirEntry(e) }
