package llmfs

import (
	"context"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store"
)

// EntryType is the kind of a directory entry.
type EntryType string

// The entry types.
const (
	TypeFile      EntryType = "file"
	TypeDirectory EntryType = "directory"
)

// Entry is one item of a directory listing.
type Entry struct {
	Name    string    `json:"name"`
	Type    EntryType `json:"type"`
	Size    int64     `json:"size"` // bytes; 0 for a directory
	ModTime time.Time `json:"-"`
}

// List returns the entries of the directory at p, sorted by name. A symbolic link is listed
// as what it points to; links that dangle or lead out of the workspace, and special files
// (FIFOs, sockets, devices), are left out, since no other operation could use them. So are
// the entries the deny rules hide, and links that lead to them.
func (w *Workspace) List(ctx context.Context, p string) ([]Entry, error) {
	return w.list(ctx, p, true)
}

// ListNames is [Workspace.List] without sizes: the same entries, each with its Name and
// Type only (Size and ModTime zero). It asks the store about no entry but symbolic links,
// whose target it must know; the directory's own record of each entry's type is enough for
// the rest, so listing a big directory costs one read of it rather than a stat per entry.
func (w *Workspace) ListNames(ctx context.Context, p string) ([]Entry, error) {
	return w.list(ctx, p, false)
}

// list is [Workspace.List], with sizes and times only if sizes is true.
func (w *Workspace) list(ctx context.Context, p string, sizes bool) ([]Entry, error) {
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpList, r); err != nil {
		return nil, err
	}
	fi, err := w.store.Stat(ctx, r.name)
	if err != nil {
		return nil, storeError(p, err)
	}
	if !fi.IsDir() {
		return nil, errorf(CodeInvalidPath, p, "not a directory: %s", p)
	}
	var des []fs.DirEntry
	if sizes {
		des, err = w.store.ReadDir(ctx, r.name)
	} else {
		des, err = store.ReadDirTypes(ctx, w.store, r.name)
	}
	if err != nil {
		return nil, storeError(p, err)
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		if w.hiddenEntry(ctx, r.name, de) {
			continue
		}
		if t := de.Type(); !sizes && t&fs.ModeSymlink == 0 {
			switch {
			case t.IsDir():
				out = append(out, Entry{Name: de.Name(), Type: TypeDirectory})
			case t.IsRegular():
				out = append(out, Entry{Name: de.Name(), Type: TypeFile})
			}
			continue // a special file
		}
		info, err := entryInfo(ctx, w, r.name, de)
		if err != nil {
			continue
		}
		e := Entry{Name: de.Name(), Type: TypeFile}
		if sizes {
			e.Size, e.ModTime = info.Size(), info.ModTime()
		}
		switch {
		case info.IsDir():
			e.Type, e.Size = TypeDirectory, 0
		case !info.Mode().IsRegular():
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// entryInfo describes the entry de of the store directory dir, following a symbolic link
// through the store.
func entryInfo(ctx context.Context, w *Workspace, dir string, de fs.DirEntry) (fs.FileInfo, error) {
	if de.Type()&fs.ModeSymlink != 0 {
		return w.store.Stat(ctx, joinName(dir, de.Name()))
	}
	if fi, ok := de.(fs.FileInfo); ok {
		return fi, nil
	}
	return de.Info()
}
