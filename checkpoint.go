package llmfs

import (
	"context"
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"unicode"

	"github.com/llmfs/llmfs/store"
)

// Checkpoint names the present point of the workspace's history, replacing an older
// checkpoint of that name. A name is 1 to 200 characters without control characters or
// spaces at either end, and not a number (numbers name changes).
func (h *History) Checkpoint(ctx context.Context, name string) (store.Checkpoint, error) {
	w := h.w
	j, err := w.history()
	if err != nil {
		return store.Checkpoint{}, err
	}
	if err := checkpointName(name); err != nil {
		return store.Checkpoint{}, err
	}
	last, err := j.Last(ctx)
	if err != nil {
		return store.Checkpoint{}, storeError(name, err)
	}
	if err := j.SetCheckpoint(ctx, name, last); err != nil {
		return store.Checkpoint{}, storeError(name, err)
	}
	return j.Checkpoint(ctx, name)
}

func checkpointName(name string) error {
	switch {
	case name == "" || len(name) > 200:
		return errorf(CodeInvalidArgument, name, "a checkpoint name must have 1 to 200 characters")
	case strings.TrimSpace(name) != name || strings.ContainsFunc(name, unicode.IsControl):
		return errorf(CodeInvalidArgument, name, "a checkpoint name must not hold control characters or start or end with a space: %q", name)
	}
	if _, err := strconv.ParseInt(name, 10, 64); err == nil {
		return errorf(CodeInvalidArgument, name, "a checkpoint name must not be a number (numbers name changes): %q", name)
	}
	return nil
}

// Checkpoints returns the workspace's checkpoints, newest first.
func (h *History) Checkpoints(ctx context.Context) ([]store.Checkpoint, error) {
	w := h.w
	j, err := w.history()
	if err != nil {
		return nil, err
	}
	cps, err := j.Checkpoints(ctx)
	if err != nil {
		return nil, storeError(w.root, err)
	}
	return cps, nil
}

// Since returns the changes made after the named checkpoint, newest first.
func (h *History) Since(ctx context.Context, name string) ([]Change, error) {
	w := h.w
	j, err := w.history()
	if err != nil {
		return nil, err
	}
	cp, err := j.Checkpoint(ctx, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errorf(CodeInvalidArgument, name, "no checkpoint named %q (make one with checkpoint)", name)
	}
	if err != nil {
		return nil, storeError(name, err)
	}
	cs, err := j.Changes(ctx, store.ChangeFilter{Path: w.base, After: cp.ID})
	if err != nil {
		return nil, storeError(name, err)
	}
	var out []Change
	for i := range cs {
		if c, ok := w.change(&cs[i]); ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// DiffSince returns the diff of everything changed since the named checkpoint.
func (h *History) DiffSince(ctx context.Context, name string) (string, error) {
	w := h.w
	cs, err := w.History().Since(ctx, name)
	if err != nil {
		return "", err
	}
	return w.History().Diff(ctx, landed(cs))
}

// Restore puts the workspace back to the named checkpoint: it undoes every change made
// since, as one change set (operation "restore"), itself journaled. Like [History.Undo]
// it is a compare-and-swap over every path at once: if any path changed other than through
// the journal since, it fails with [CodeFileChanged] and touches nothing. On a SQL store it
// is one transaction; on a host directory each file ends old or new.
func (h *History) Restore(ctx context.Context, name string) (*UndoResult, error) {
	w := h.w
	cs, err := w.History().Since(ctx, name)
	if err != nil {
		return nil, err
	}
	return w.revert(ctx, ChangeRestore, landed(cs))
}

// landed keeps the changes that landed; those that never did are no part of the story.
func landed(cs []Change) []Change {
	var out []Change
	for _, c := range cs {
		if c.State != store.Unlanded {
			out = append(out, c)
		}
	}
	return out
}
