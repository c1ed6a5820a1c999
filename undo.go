package llmfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// UndoResult is what [History.Undo], [History.UndoSet] and [History.Restore] return.
type UndoResult struct {
	// Paths are the paths put back, sorted.
	Paths []string `json:"paths"`
}

// Undo puts back what the changes with the given IDs found: for each path they changed,
// the content before the first of them. It is a compare-and-swap: only when every path
// still holds what the last of them left does anything change; otherwise it fails with
// [CodeFileChanged], with a diff of what changed since in the message, and touches nothing.
// A change that never landed ([store.Unlanded]) has nothing to undo, and one whose outcome
// a crash left unknown ([store.Diverged]) is never undone. The undo is itself journaled
// (operation "undo"), so undoing it redoes the changes.
func (h *History) Undo(ctx context.Context, ids ...int64) (*UndoResult, error) {
	w := h.w
	if len(ids) == 0 {
		return nil, errorf(CodeInvalidArgument, "", "no change given to undo")
	}
	var cs []Change
	for _, id := range ids {
		c, err := w.History().ChangeByID(ctx, id)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return w.revert(ctx, ChangeUndo, cs)
}

// UndoSet undoes the whole change set that holds change id; see [History.Undo].
func (h *History) UndoSet(ctx context.Context, id int64) (*UndoResult, error) {
	w := h.w
	cs, err := w.setOf(ctx, id)
	if err != nil {
		return nil, err
	}
	return w.revert(ctx, ChangeUndo, cs)
}

// revert puts each path the changes touched back to what it held before them, as one
// change set of operation op, if every path still holds what they left.
func (w *Workspace) revert(ctx context.Context, op string, changes []Change) (*UndoResult, error) {
	j, err := w.history()
	if err != nil {
		return nil, err
	}
	var live []Change
	for _, c := range changes {
		switch c.State {
		case store.Committed:
			live = append(live, c)
		case store.Unlanded:
			if len(changes) == 1 {
				return nil, errorf(CodeInvalidArgument, c.Path, "change %d never landed (the process making it stopped first): there is nothing to undo", c.ID)
			}
		default:
			return nil, errorf(CodeFileChanged, c.Path, "change %d is %s: after a crash %s held neither its old nor its new content, so it is never undone; look at the file and fix it by hand", c.ID, c.State, w.rel(c.Path))
		}
	}
	// A path the changes left as they found it (changed, then restored) has nothing to
	// put back: restoring a checkpoint twice changes nothing and names no file.
	states := slices.DeleteFunc(net(live), func(p *pathState) bool { return p.before.Equal(p.after) })
	for _, p := range states {
		if (p.before.Kind == store.Link || p.before.Kind == store.File) && !w.kept(ctx, j, p.before) {
			return nil, w.notKept(p)
		}
		r, err := w.resolve(w.display(p.name))
		if err == nil {
			opCheck := OpWrite
			if p.before.Kind == store.Absent {
				opCheck = OpDelete
			}
			err = w.check(ctx, opCheck, r)
		}
		if err != nil {
			return nil, err
		}
	}
	return journaled(ctx, w, op, func(v *Workspace) (*UndoResult, error) {
		return v.putBack(ctx, j, states)
	})
}

// kept reports whether the journal holds the content of v.
func (w *Workspace) kept(ctx context.Context, j store.Journal, v store.Version) bool {
	_, err := j.Blob(ctx, v.Hash)
	return err == nil
}

// putBack checks that every path holds its after version, then gives each its before one.
func (w *Workspace) putBack(ctx context.Context, j store.Journal, states []*pathState) (res *UndoResult, err error) {
	var conflicts []string
	var diff strings.Builder
	now := map[string]store.Version{}
	for _, p := range states {
		v, data, err := store.Snapshot(ctx, w.store, p.name, w.undoMax)
		if err != nil {
			return nil, storeError(w.display(p.name), err)
		}
		now[p.name] = v
		if v.Equal(p.after) {
			continue
		}
		rel := w.rel(w.display(p.name))
		conflicts = append(conflicts, rel)
		was, _ := w.text(ctx, j, p.after)
		if v.Kind == store.File && data != nil && p.after.Kind != store.Dir && !isBinary(was) && !isBinary(string(data)) {
			diff.WriteString(textdiff.Unified(rel, was, string(data), 3, 60))
		} else {
			fmt.Fprintf(&diff, "%s: was %s, now %s\n", rel, p.after.Kind, v.Kind)
		}
	}
	if len(conflicts) > 0 {
		return nil, &Error{Code: CodeFileChanged, Path: w.display(states[0].name), Err: store.ErrChanged,
			Msg: fmt.Sprintf("cannot undo: %s changed since (by someone else, or outside llmfs); nothing was touched. What changed since:\n%s",
				strings.Join(conflicts, ", "), diff.String())}
	}
	depth := func(p *pathState) int { return strings.Count(p.name, "/") }
	rmFiles, rmDirs, mkDirs, files, links := sortStates(states, now)
	if err := w.checkEmptied(ctx, rmFiles, rmDirs); err != nil {
		return nil, err
	}
	var made []string
	admitted, err := w.admitRevert(ctx, states, now)
	if err != nil {
		return nil, err
	}
	defer func() { admitted(made, err) }()
	slices.SortStableFunc(rmDirs, func(a, b *pathState) int { return depth(b) - depth(a) })
	slices.SortStableFunc(mkDirs, func(a, b *pathState) int { return depth(a) - depth(b) })
	for _, p := range rmFiles {
		// A file goes only if it still holds what was checked above: a write that got in
		// since is kept, and the undo fails.
		var err error
		if cur := now[p.name]; cur.Kind == store.File {
			err = store.RemoveIf(ctx, w.store, p.name, cur.Hash)
		} else {
			err = w.store.Remove(ctx, p.name)
		}
		if errors.Is(err, store.ErrChanged) {
			return nil, changedError(w.display(p.name), err)
		}
		if err != nil {
			return nil, storeError(w.display(p.name), err)
		}
	}
	for _, p := range rmDirs {
		if err := w.store.Remove(ctx, p.name); err != nil {
			return nil, storeError(w.display(p.name), err)
		}
	}
	for _, p := range mkDirs {
		if err := w.mkdirAll(ctx, p.name, &made); err != nil {
			return nil, storeError(w.display(p.name), err)
		}
	}
	for _, p := range files {
		data, err := j.Blob(ctx, p.before.Hash)
		if err != nil {
			return nil, storeError(w.display(p.name), err)
		}
		if err := w.mkdirAll(ctx, parentName(p.name), &made); err != nil {
			return nil, storeError(w.display(p.name), err)
		}
		opts := store.WriteOptions{IfAbsent: true}
		if cur := now[p.name]; cur.Kind == store.File {
			opts = store.WriteOptions{IfMatch: cur.Hash}
		}
		_, err = w.store.WriteFile(ctx, p.name, bytes.NewReader(data), opts)
		if errors.Is(err, store.ErrChanged) || errors.Is(err, fs.ErrExist) {
			return nil, changedError(w.display(p.name), err)
		}
		if err != nil {
			return nil, storeError(w.display(p.name), err)
		}
		if w.tracker != nil {
			w.tracker.forget(p.name)
		}
	}
	for _, p := range links {
		if err := w.linkBack(ctx, j, p, &made); err != nil {
			return nil, err
		}
	}
	res = &UndoResult{}
	for _, p := range states {
		res.Paths = append(res.Paths, w.display(p.name))
	}
	return res, nil
}

// checkEmptied fails with [CodeFileChanged] unless every directory of rmDirs holds nothing
// but paths the undo removes too: a directory someone has since put a file in cannot be
// removed, and finding that out only after removing the rest would half-apply the undo.
func (w *Workspace) checkEmptied(ctx context.Context, rmFiles, rmDirs []*pathState) error {
	gone := map[string]bool{}
	for _, p := range slices.Concat(rmFiles, rmDirs) {
		gone[p.name] = true
	}
	for _, p := range rmDirs {
		des, err := w.store.ReadDir(ctx, p.name)
		if err != nil {
			return storeError(w.display(p.name), err)
		}
		for _, de := range des {
			if name := path.Join(p.name, de.Name()); !gone[name] {
				rel := w.rel(w.display(p.name))
				return &Error{Code: CodeFileChanged, Path: w.display(p.name), Err: store.ErrChanged,
					Msg: fmt.Sprintf("cannot undo: %s has since been given %s (by someone else, or outside llmfs), so it cannot be removed; nothing was touched", rel, w.rel(w.display(name)))}
			}
		}
	}
	return nil
}

// notKept is the refusal to undo a change whose earlier content the journal does not hold:
// a symbolic link, or a file over the size the journal keeps, named with its setting.
func (w *Workspace) notKept(p *pathState) error {
	rel := w.rel(w.display(p.name))
	why := "it is a symbolic link"
	switch {
	case p.before.Kind == store.File && p.before.Size <= w.undoMax:
		why = fmt.Sprintf("the journal no longer holds it: dropped by the history's retention, or over the size limit in force when the change was made (UndoMaxFileBytes, undo_max_file_bytes, --undo-max-file-bytes; now %d bytes)", w.undoMax)
	case p.before.Kind == store.File:
		why = fmt.Sprintf("it was %d bytes, and the journal keeps the content of files up to %d bytes, now (UndoMaxFileBytes, the setting undo_max_file_bytes or --undo-max-file-bytes; the default is 64 MiB); a larger limit lets changes from now on be undone", p.before.Size, w.undoMax)
	}
	return errorf(CodeFileTooLarge, w.display(p.name), "the history does not keep the earlier content of %s (%s), so change %d cannot be undone", rel, why, p.ids[0])
}

// linkBack makes the symbolic link p was before, from the target the journal kept.
func (w *Workspace) linkBack(ctx context.Context, j store.Journal, p *pathState, made *[]string) error {
	sl, ok := w.store.(store.Symlinker)
	if !ok {
		return storeError(w.display(p.name), noCapability("symlink", p.name))
	}
	target, err := j.Blob(ctx, p.before.Hash)
	if err != nil {
		return storeError(w.display(p.name), err)
	}
	if err := w.mkdirAll(ctx, parentName(p.name), made); err != nil {
		return storeError(w.display(p.name), err)
	}
	if err := sl.Symlink(ctx, string(target), p.name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return changedError(w.display(p.name), err)
		}
		return storeError(w.display(p.name), err)
	}
	return nil
}

// sortStates sorts what undo does to each path by what it holds now: files and links to
// remove, directories to remove, directories to make, files to write and links to make.
func sortStates(states []*pathState, now map[string]store.Version) (rmFiles, rmDirs, mkDirs, files, links []*pathState) {
	for _, p := range states {
		cur := now[p.name]
		switch {
		case p.before.Equal(cur):
		case p.before.Kind == store.File || p.before.Kind == store.Link:
			switch cur.Kind {
			case store.Dir:
				rmDirs = append(rmDirs, p)
			case store.Link:
				rmFiles = append(rmFiles, p)
			case store.File:
				if p.before.Kind == store.Link {
					rmFiles = append(rmFiles, p)
				}
			}
			if p.before.Kind == store.Link {
				links = append(links, p)
			} else {
				files = append(files, p)
			}
		case p.before.Kind == store.Dir:
			if cur.Kind != store.Absent {
				rmFiles = append(rmFiles, p)
			}
			mkDirs = append(mkDirs, p)
		case cur.Kind == store.Dir:
			rmDirs = append(rmDirs, p)
		default:
			rmFiles = append(rmFiles, p)
		}
	}
	return rmFiles, rmDirs, mkDirs, files, links
}
