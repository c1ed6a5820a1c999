//go:build !js && !wasip1

package osdir

import (
	"context"
	"io/fs"
	"path"

	"github.com/llmfs/llmfs/internal/namesort"
)

// ReadDirTypes implements [store.TypeLister]. A directory opened in an os.Root loads every
// entry's information as it is read (an lstat each); this reads the names and types the
// directory holds (getdents on Linux) and describes an entry only when asked.
func (s *Store) ReadDirTypes(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return s.listDir(name, s.readDirTypes)
}

// typedEntry is a directory entry known by its name and type; Info asks the store.
type typedEntry struct {
	in   *typedDir
	name string
	typ  fs.FileMode
}

// typedDir is the directory its entries were read from.
type typedDir struct {
	s   *Store
	dir string
}

func (e *typedEntry) Name() string      { return e.name }
func (e *typedEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *typedEntry) Type() fs.FileMode { return e.typ }
func (e *typedEntry) Info() (fs.FileInfo, error) {
	return e.in.s.fs().Lstat(path.Join(e.in.dir, e.name))
}
func (e *typedEntry) String() string { return fs.FormatDirEntry(e) }

// sortTyped returns the entries sorted by name, as fs.DirEntry values pointing into
// entries.
func sortTyped(entries []typedEntry) []fs.DirEntry {
	namesort.Sort(entries, func(e *typedEntry) string { return e.name })
	out := make([]fs.DirEntry, len(entries))
	for i := range entries {
		out[i] = &entries[i]
	}
	return out
}
