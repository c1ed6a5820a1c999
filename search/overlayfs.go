package search

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store"
)

// overlayFS searches a copy-on-write overlay (review before apply) at the base's speed:
// what the overlay shows as the base has it is read through the base's fast path (dirFS
// for a host directory), and only the names the upper layer changes, hides or lists
// differently go through the overlay, so no pending change is missed and no hidden base
// file shows.
type overlayFS struct {
	ov     store.Layered
	over   storeFS    // the overlay itself, for the changed names
	base   fileSystem // the base's fast path
	layout *store.Layout
}

func newOverlayFS(ctx context.Context, ov store.Layered) (fileSystem, error) {
	l, err := ov.Layout(ctx)
	if err != nil {
		return nil, err
	}
	base, err := pickFS(ov.Base())
	if err != nil {
		return nil, err
	}
	return overlayFS{ov: ov, over: storeFS{s: ov}, base: base, layout: l}, nil
}

func (f overlayFS) pick(name string) fileSystem {
	if f.layout.Clean(name) {
		return f.base
	}
	return f.over
}

// readDir lists a directory the upper layer changes from the base's fast listing and the
// upper entries the layout holds; only a name the layout does not know as a directory (a
// file, or a missing name) asks the overlay, for its error.
func (f overlayFS) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if f.layout.Clean(name) {
		return f.base.readDir(ctx, name)
	}
	if !f.layout.Dirty[name] {
		return f.over.readDir(ctx, name)
	}
	var base []fs.DirEntry
	if !f.layout.Hidden(name) {
		var err error
		base, err = f.base.readDir(ctx, name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, store.ErrNotDir) {
			return nil, err
		}
	}
	return f.layout.Merge(name, base), nil
}

func (f overlayFS) open(ctx context.Context, name string) (io.ReadCloser, error) {
	return f.pick(name).open(ctx, name)
}

func (f overlayFS) openFollow(ctx context.Context, name string) (io.ReadCloser, error) {
	return f.pick(name).openFollow(ctx, name)
}

func (f overlayFS) modTime(ctx context.Context, name string, de fs.DirEntry) (time.Time, error) {
	return f.pick(name).modTime(ctx, name, de)
}

func (f overlayFS) stat(ctx context.Context, name string) (fs.FileInfo, string, error) {
	return f.pick(name).stat(ctx, name)
}

func (f overlayFS) close() error { return f.base.close() }

// overlayOf returns the layered store (a copy-on-write overlay) s is, if it is one.
func overlayOf(s store.Store) (store.Layered, bool) {
	ov, ok := s.(store.Layered)
	return ov, ok
}
