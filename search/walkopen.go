package search

import (
	"context"
	"io"
	"strings"
)

// open opens the file f the walk found for reading. A file whose directory the walk holds
// open for it (walkOptions.holdFiles) is opened by its one name relative to that
// directory's handle, which follows no symbolic link: the kernel resolves one element
// instead of the whole path from the root, and the handle is let go once its last file
// is opened. Should that fail (the handle closed at the end of a walk that stopped, a
// link swapped in, the file gone), the file is opened by name as before, which resolves
// a link only while it stays in the store.
func (w *walker) open(ctx context.Context, f file) (io.ReadCloser, error) {
	if f.dir == nil {
		if f.de == nil {
			return w.fsys.openFollow(ctx, f.name)
		}
		return w.fsys.open(ctx, f.name)
	}
	defer w.fileOpened(f.dir)
	if r, err := f.dir.h.d.Open(f.name[strings.LastIndexByte(f.name, '/')+1:]); err == nil {
		return r, nil
	}
	return w.fsys.open(ctx, f.name)
}

// fileOpened lets go of the hold a file had on its directory n.
func (w *walker) fileOpened(n *dirNode) {
	if n.refs.Add(-1) == 0 {
		w.release(n)
	}
}
