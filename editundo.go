package llmfs

import (
	"context"
	"errors"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// EditUndo is what it takes to take back one edit: see [EditResult.Undo] and
// [Workspace.RevertEdit]. It holds both contents in memory.
type EditUndo struct {
	Path          string // absolute
	before, after string
}

// Undo returns what [Workspace.RevertEdit] needs to take the edit back, or nil for a
// result that does not carry it.
func (r *EditResult) Undo() *EditUndo {
	if r == nil || r.before == r.after {
		return nil
	}
	return &EditUndo{Path: r.Path, before: r.before, after: r.after}
}

// RevertEdit puts the file of u back as it was before the edit, if it still holds what the
// edit left there (compare-and-swap); otherwise it fails with [CodeFileChanged] and
// changes nothing. It is for a caller that takes back an edit it has just made (a check
// after the edit failed); the journal records it as an undo. To take back any change on
// record, use [Workspace.Undo].
func (w *Workspace) RevertEdit(ctx context.Context, u *EditUndo) (*EditResult, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeUndo, func(w *Workspace) (*EditResult, error) { return w.RevertEdit(ctx, u) })
	}
	r, err := w.resolve(u.Path)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpEdit, r); err != nil {
		return nil, err
	}
	done, err := w.admitFile(ctx, r, func(int64) int64 { return int64(len(u.before)) })
	if err != nil {
		return nil, err
	}
	_, err = w.store.WriteFile(ctx, r.name, strings.NewReader(u.before), store.WriteOptions{IfMatch: store.Hash([]byte(u.after))})
	done(err)
	if errors.Is(err, store.ErrChanged) {
		return nil, &Error{Code: CodeFileChanged, Path: u.Path, Err: err,
			Msg: u.Path + " has changed since the edit being undone; nothing was undone. Read it and edit it instead."}
	}
	if err != nil {
		return nil, storeError(u.Path, err)
	}
	if w.tracker != nil {
		w.tracker.record(r.name, seenOf([]byte(u.before)))
	}
	return &EditResult{Path: w.display(r.name), Replacements: 1, Matched: MatchExact, before: u.after, after: u.before}, nil
}
