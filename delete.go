package llmfs

import (
	"context"

	"github.com/llmfs/llmfs/store"
)

// Delete removes the file at p and returns its absolute path. A directory is refused with
// [CodeInvalidPath]; a symbolic link is removed itself, never its target.
func (w *Workspace) Delete(ctx context.Context, p string) (string, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeDelete, func(w *Workspace) (string, error) { return w.Delete(ctx, p) })
	}
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	if err := w.check(ctx, OpDelete, r); err != nil {
		return "", err
	}
	if r.name == "." {
		return "", errorf(CodeInvalidPath, p, "is a directory (the workspace root): %s", p)
	}
	if err := w.slashDir(ctx, r, false); err != nil {
		return "", err
	}
	if r.slash {
		// A directory, or a link to one, named as such: unlink(2) says EISDIR.
		if fi, err := w.store.Stat(ctx, r.name); err == nil && fi.IsDir() {
			return "", errorf(CodeInvalidPath, p, "is a directory; only files can be deleted: %s", p)
		}
	}
	fi, err := store.Lstat(ctx, w.store, r.name)
	if err != nil {
		return "", storeError(p, err)
	}
	if fi.IsDir() {
		return "", errorf(CodeInvalidPath, p, "is a directory; only files can be deleted: %s", p)
	}
	var size int64
	if fi.Mode().IsRegular() {
		size = fi.Size()
	}
	done := w.removing(r.name)
	err = w.store.Remove(ctx, r.name)
	done(size, err)
	if err != nil {
		return "", storeError(p, err)
	}
	abs := w.display(r.name)
	if w.tracker != nil {
		w.tracker.forget(r.name)
	}
	return abs, nil
}
