package llmfs

import (
	"context"
	"errors"

	"github.com/llmfs/llmfs/store"
)

// Mkdir creates the directory at p and any missing parents. A directory that already
// exists is not an error; a file in the way is [CodeFileAlreadyExists]. It returns the
// directory's absolute path.
func (w *Workspace) Mkdir(ctx context.Context, p string) (string, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeMkdir, func(w *Workspace) (string, error) { return w.Mkdir(ctx, p) })
	}
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	if err := w.check(ctx, OpMkdir, r); err != nil {
		return "", err
	}
	done, err := w.admitDirs(ctx, p, r.name)
	if err != nil {
		return "", err
	}
	var made []string
	err = w.mkdirAll(ctx, r.name, &made)
	if err != nil {
		w.removeMade(ctx, made) // all or nothing, as under a quota of the store's own
	}
	done(err)
	if err != nil {
		if errors.Is(err, store.ErrNotDir) {
			e := errorf(CodeFileAlreadyExists, p, "a file exists where a directory is needed: %s", p)
			e.Err = err
			return "", e
		}
		return "", storeError(p, err)
	}
	return w.display(r.name), nil
}
