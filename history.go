package llmfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// History is a workspace's record of changes, as [Workspace.History] returns it: the
// changes in its store's journal that the workspace shows (those inside its root and not
// denied), their diffs, checkpoints, and undo. A workspace whose store keeps no journal
// has a History whose methods fail with [CodeInvalidArgument] (Lines returns 0, 0).
// Every change is recorded by the one journal writer of journal.go, History.Record
// included.
type History struct {
	w *Workspace
}

// History returns w's history.
func (w *Workspace) History() *History { return &History{w: w} }

// Change is one entry of a workspace's history: one path's change, as [History.List]
// returns it.
//
// Path and Other follow the convention of every path the Workspace API returns (a
// ReadResult's, a WriteResult's): absolute, a host path on a host directory and a
// /-rooted virtual path on a virtual workspace, so a Change's path can be passed back to
// any operation or compared with a result's. What people read (llmfs log, the console
// and its feed) is [Paths.Rel] of it: slash-separated, relative to the root.
type Change struct {
	ID    int64     `json:"id"`
	Set   int64     `json:"set"` // the ID of the first change of its change set
	Time  time.Time `json:"time"`
	Actor string    `json:"actor"`
	// Op is the operation: one of the Change* constants (write, edit, generate, ...).
	Op     string        `json:"op"`
	Path   string        `json:"path"`            // absolute: see the type's doc
	Other  string        `json:"other,omitempty"` // a move's other end, a copy's source
	Before store.Version `json:"before"`
	After  store.Version `json:"after"`
	State  store.State   `json:"state"`

	name, other string      // store names
	lines       store.Lines // counted when recorded (see History.Lines)
}

// HistoryFilter selects changes for [History.List]. The zero value selects all.
type HistoryFilter struct {
	// Path selects the changes to a file or below a directory (a move's or copy's other
	// end counts too).
	Path  string
	Actor string
	Since time.Time
	// Set selects one change set.
	Set int64
	// After selects the changes newer than this ID (for a feed; see [History.WaitChange]).
	After int64
	// Limit returns at most this many changes (0: no limit).
	Limit int
}

// List returns the changes made to the workspace, newest first: those [History.All]
// yields, so f.Limit counts the changes the workspace shows (a listing whose newest
// entries are denied reads on until it has them). A workspace whose store keeps no journal
// fails with [CodeInvalidArgument].
func (h *History) List(ctx context.Context, f HistoryFilter) ([]Change, error) {
	var out []Change
	for c, err := range h.All(ctx, f) {
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ChangeByID returns the change id.
func (h *History) ChangeByID(ctx context.Context, id int64) (Change, error) {
	w := h.w
	j, err := w.history()
	if err != nil {
		return Change{}, err
	}
	sc, err := j.Change(ctx, id)
	if errors.Is(err, fs.ErrNotExist) {
		return Change{}, errorf(CodeInvalidArgument, fmt.Sprint(id), "no change %d in the history (see the log for the changes kept)", id)
	}
	if err != nil {
		return Change{}, storeError(fmt.Sprint(id), err)
	}
	c, ok := w.change(&sc)
	if !ok {
		return Change{}, errorf(CodeInvalidArgument, fmt.Sprint(id), "no change %d in the history of this workspace", id)
	}
	return c, nil
}

// change turns a journal entry into a Change of w, or reports that w does not show it
// (outside the root of a relaxed workspace, or denied).
func (w *Workspace) change(sc *store.Change) (Change, bool) {
	if !w.inRoot(sc.Path) || w.deniedName(sc.Path) {
		return Change{}, false
	}
	c := Change{ID: sc.ID, Set: sc.Set, Time: sc.Time, Actor: sc.Actor, Op: sc.Op,
		Path: w.display(sc.Path), Before: sc.Before, After: sc.After, State: sc.State, name: sc.Path, other: sc.Other, lines: sc.Lines}
	if sc.Other != "" && w.inRoot(sc.Other) && !w.deniedName(sc.Other) {
		c.Other = w.display(sc.Other)
	}
	return c, true
}

// inRoot reports whether the store name lies in the workspace's root.
func (w *Workspace) inRoot(name string) bool {
	return w.base == "." || name == w.base || strings.HasPrefix(name, w.base+"/")
}

// history returns the journal, or why there is none.
func (w *Workspace) history() (store.Journal, error) {
	if w.bad != nil {
		return nil, w.bad
	}
	if w.jr == nil {
		return nil, errorf(CodeInvalidArgument, w.root, "this workspace keeps no history (its store has no journal, or journaling is off)")
	}
	return w.jr.Journal(), nil
}

// Lines returns the number of lines the change added and removed, for text files the
// journal keeps; 0, 0 otherwise. The journal counts them when it records a change; an
// entry recorded without counts (by an older llmfs, or the review layer's applies) is
// counted here from the contents the journal keeps.
func (h *History) Lines(ctx context.Context, c Change) (added, removed int) {
	if c.lines.Counted {
		return c.lines.Added, c.lines.Removed
	}
	w := h.w
	j, err := w.history()
	if err != nil {
		return 0, 0
	}
	return changeLines(c, func(v store.Version) (string, bool) { return w.text(ctx, j, v) })
}

// changeLines counts the lines c added and removed, given each version's text (false: not
// kept, or not text).
func changeLines(c Change, text func(store.Version) (string, bool)) (added, removed int) {
	a, okA := text(c.Before)
	b, okB := text(c.After)
	if !okA || !okB {
		return 0, 0
	}
	return textdiff.Count(a, b)
}

// text returns the content of a version as text: "" for an absent path or a directory.
func (w *Workspace) text(ctx context.Context, j store.Journal, v store.Version) (string, bool) {
	if v.Kind != store.File {
		return "", v.Kind != store.Link
	}
	b, err := j.Blob(ctx, v.Hash)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// pathState is what a set of changes did to one path: from the first change's before
// to the last one's after.
type pathState struct {
	name          string
	before, after store.Version
	ids           []int64
}

// net folds changes (any order) into one state per path, sorted by path.
func net(changes []Change) []*pathState {
	sorted := slices.Clone(changes)
	slices.SortFunc(sorted, func(a, b Change) int { return int(a.ID - b.ID) })
	by := map[string]*pathState{}
	var out []*pathState
	for _, c := range sorted {
		p := by[c.name]
		if p == nil {
			p = &pathState{name: c.name, before: c.Before}
			by[c.name] = p
			out = append(out, p)
		}
		p.after = c.After
		p.ids = append(p.ids, c.ID)
	}
	slices.SortFunc(out, func(a, b *pathState) int { return strings.Compare(a.name, b.name) })
	return out
}

// Diff returns the unified diff of changes: for each path, from what it held before the
// first of them to what it held after the last, with paths relative to the root.
func (h *History) Diff(ctx context.Context, changes []Change) (string, error) {
	w := h.w
	j, err := w.history()
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, p := range net(changes) {
		sb.WriteString(w.diffOne(ctx, j, p.name, p.before, p.after))
	}
	return sb.String(), nil
}

// diffOne renders one path's change from a to b.
func (w *Workspace) diffOne(ctx context.Context, j store.Journal, name string, a, b store.Version) string {
	rel := w.rel(w.display(name))
	if a.Equal(b) {
		return ""
	}
	at, okA := w.text(ctx, j, a)
	bt, okB := w.text(ctx, j, b)
	switch {
	case a.Kind == store.Dir || b.Kind == store.Dir:
		return fmt.Sprintf("--- a/%s\n+++ b/%s\n# directory: %s -> %s\n", rel, rel, a.Kind, b.Kind)
	case !okA || !okB || isBinary(at) || isBinary(bt):
		return fmt.Sprintf("--- a/%s\n+++ b/%s\n# binary or not kept: %s %s (%d bytes) -> %s %s (%d bytes)\n",
			rel, rel, a.Kind, short(a.Hash), a.Size, b.Kind, short(b.Hash), b.Size)
	}
	d := textdiff.Unified(rel, at, bt, 3, 0)
	if d == "" && a.Kind != b.Kind {
		// An empty file made or removed.
		return fmt.Sprintf("--- a/%s\n+++ b/%s\n# %s -> %s (empty)\n", rel, rel, a.Kind, b.Kind)
	}
	return d
}

func isBinary(s string) bool { return strings.IndexByte(s[:min(len(s), binarySniffLen)], 0) >= 0 }

func short(h string) string { return h[:min(len(h), 12)] }

// DiffSet returns the diff of the change set with the given ID (any change's ID selects
// its set).
func (h *History) DiffSet(ctx context.Context, id int64) (string, error) {
	w := h.w
	cs, err := w.setOf(ctx, id)
	if err != nil {
		return "", err
	}
	return w.History().Diff(ctx, cs)
}

// setOf returns the changes of the change set holding change id.
func (w *Workspace) setOf(ctx context.Context, id int64) ([]Change, error) {
	c, err := w.History().ChangeByID(ctx, id)
	if err != nil {
		return nil, err
	}
	return w.History().List(ctx, HistoryFilter{Set: c.Set})
}

// WaitChange returns once a change newer than after is on record, made by any process, or
// with ctx's error. It is the change feed: a follower passes the ID of the newest change
// it has seen, then reads the history after it.
func (h *History) WaitChange(ctx context.Context, after int64) error {
	w := h.w
	j, err := w.history()
	if err != nil {
		return err
	}
	if err := j.Wait(ctx, after); err != nil {
		return storeError(w.root, err)
	}
	return nil
}

// deniedName reports whether the store name falls under a deny rule, by its name alone: the
// journal shows what happened to a path, which may no longer exist to be resolved.
func (w *Workspace) deniedName(name string) bool {
	if w.isReserved(name) {
		return true
	}
	if w.deny == nil {
		return false
	}
	_, ok := w.deny.match(w.denyRel(name))
	return ok
}
