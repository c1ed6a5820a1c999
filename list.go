package llmfs

import (
	"context"
	"io/fs"
	"time"
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
	des, err := w.store.ReadDir(ctx, r.name)
	if err != nil {
		return nil, storeError(p, err)
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		name := joinName(r.name, de.Name())
		if w.hidden(ctx, name, de) {
			continue
		}
		info, err := entryInfo(ctx, w, name, de)
		if err != nil {
			continue
		}
		e := Entry{Name: de.Name(), Type: TypeFile, Size: info.Size(), ModTime: info.ModTime()}
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

// entryInfo describes a directory entry, following a symbolic link through the store.
func entryInfo(ctx context.Context, w *Workspace, name string, de fs.DirEntry) (fs.FileInfo, error) {
	if de.Type()&fs.ModeSymlink != 0 {
		return w.store.Stat(ctx, name)
	}
	if fi, ok := de.(fs.FileInfo); ok {
		return fi, nil
	}
	return de.Info()
}
