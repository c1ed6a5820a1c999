//go:build !js && !wasip1

package osdir

import (
	"context"
	"fmt"
	"io/fs"
	"slices"

	"github.com/llmfs/llmfs/store"
)

var _ store.DirOpener = (*Store)(nil)

// OpenDir implements [store.DirOpener]: the directory name, opened below the store's root
// as [store.DirHandle.OpenDir] opens names, following no symbolic link (see the package
// documentation for what each platform guarantees). Walks (package search, the core's
// usage count) list and read the tree through it.
func (s *Store) OpenDir(ctx context.Context, name string) (store.DirHandle, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "opendir", Path: name, Err: store.ErrInvalidName}
	}
	root, err := s.openRootDir()
	if err != nil {
		return nil, fixErr("opendir", ".", err)
	}
	if name == "." {
		return root, nil
	}
	defer root.Close()
	return root.OpenDir(name)
}

// hidden reports whether de is one of this store's own files, which no listing shows:
// the temporary file of a write under way or one a crash left behind (see [IsTemp]). Every
// listing of the store (ReadDir, ReadDirTypes, a DirHandle's) asks it.
func hidden(de fs.DirEntry) bool {
	return IsTemp(de.Name()) && de.Type().IsRegular()
}

// hideOwn removes the store's own files from a listing.
func hideOwn(entries []fs.DirEntry) []fs.DirEntry {
	return slices.DeleteFunc(entries, hidden)
}

// joinName joins a store directory name and a name below it.
func joinName(dir, name string) string {
	switch {
	case name == ".":
		return dir
	case dir == ".":
		return name
	}
	return dir + "/" + name
}

// dirErr is the error of a DirHandle's operation op on the name below the directory dir:
// a symbolic link met on the way is [store.ErrSymlink], the rest as [fixErr] has it.
func dirErr(op, dir, name string, err error, link bool) error {
	full := joinName(dir, name)
	if link {
		return &fs.PathError{Op: op, Path: full, Err: fmt.Errorf("%w: %w", store.ErrSymlink, err)}
	}
	return fixErr(op, full, err)
}
