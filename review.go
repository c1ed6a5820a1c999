package llmfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// Review is the review of the changes an agent keeps pending over a workspace's files (a
// workspace over a [store.Reviewable] store, such as store/overlay): list them, see their
// diff against the base each started from, apply or discard them, resolve a conflict.
// Every face (the CLI, the console, the reviewer MCP server) reviews through it, so that
// each resolution is journaled under the actor who asked (see [Workspace.WithActor]) and
// obeys the workspace's work mode and deny rules as any write does.
//
// Apply and Discard take, per file, the version the person saw ([PendingChange.Version]):
// a change that moved since (the agent wrote again) is refused with FILE_CHANGED, nothing
// touched.
type Review struct {
	w *Workspace
	s store.Reviewable // nil: the workspace keeps nothing pending
}

// A PendingChange is one file's pending change, with its version.
type PendingChange = store.PendingChange

// A Resolved is what an apply or discard did with one pending change.
type Resolved = store.Resolved

// A ReviewRequest says which pending changes to apply or discard: at or below Paths (all
// if none), only Hunks of each text file (all if none), and the version each path had
// when the person saw it (Expect, by path; optional).
type ReviewRequest struct {
	Paths  []string
	Hunks  []int
	Expect map[string]string
}

// Take says how [Review.Resolve] settles a file.
type Take string

// The ways to resolve a pending file.
const (
	TakeBase  Take = "base"  // keep the file as the base holds it now: the change is discarded
	TakeAgent Take = "agent" // the agent's version, over whatever the base holds now
	TakeEdit  Take = "edit"  // the content the person gives
)

// Review returns the review of w's pending changes. On a workspace that keeps none, List
// and Diff are empty and the others fail with INVALID_ARGUMENT.
func (w *Workspace) Review() *Review {
	r, _ := w.store.(store.Reviewable)
	return &Review{w: w, s: r}
}

func (r *Review) none() error {
	return &Error{Code: CodeInvalidArgument, Msg: "the workspace keeps no pending changes to review (it is not under review)"}
}

// List returns the pending changes, sorted by path, each with its version.
func (r *Review) List(ctx context.Context) ([]PendingChange, error) {
	if r.s == nil {
		return nil, nil
	}
	cs, err := r.s.Pending(ctx)
	return cs, storeError("", err)
}

// Diff returns the unified diff of the pending changes at or below paths (all if none),
// each against its merge base, and the listing of the changes it shows, with their
// versions. The listing is taken first: should the agent write in between, the versions
// are older than the diff, so an apply of them is refused rather than applying unseen
// changes.
func (r *Review) Diff(ctx context.Context, paths ...string) (string, []PendingChange, error) {
	if r.s == nil {
		return "", nil, nil
	}
	names, err := r.names(paths)
	if err != nil {
		return "", nil, err
	}
	cs, err := r.s.Pending(ctx)
	if err != nil {
		return "", nil, storeError("", err)
	}
	var shown []PendingChange
	for _, c := range cs {
		if below(c, names) {
			shown = append(shown, c)
		}
	}
	d, err := r.s.Diff(ctx, names...)
	return d, shown, storeError("", err)
}

// Apply writes the requested pending changes onto the base. A file whose base changed
// since the agent started merges three-way; overlapping changes are a conflict
// (FILE_CHANGED, both sides marked), left pending while the others apply. It returns what
// was applied and the conflicts joined into one error.
func (r *Review) Apply(ctx context.Context, req ReviewRequest) ([]Resolved, error) {
	return r.resolve(ctx, req, true)
}

// Discard drops the requested pending changes: the base shows through again.
func (r *Review) Discard(ctx context.Context, req ReviewRequest) ([]Resolved, error) {
	return r.resolve(ctx, req, false)
}

func (r *Review) resolve(ctx context.Context, req ReviewRequest, apply bool) ([]Resolved, error) {
	if r.s == nil {
		return nil, r.none()
	}
	names, err := r.names(req.Paths)
	if err != nil {
		return nil, err
	}
	expect := map[string]string{}
	for p, v := range req.Expect {
		n, err := r.names([]string{p})
		if err != nil {
			return nil, err
		}
		expect[n[0]] = v
	}
	sreq := store.ReviewRequest{Paths: names, Hunks: req.Hunks, Expect: expect, Actor: r.w.actorName()}
	if apply {
		sreq.Allow = func(c PendingChange) error { return r.allow(ctx, c) }
	}
	var done []Resolved
	if apply {
		done, err = r.s.ApplyPending(ctx, sreq)
	} else {
		done, err = r.s.DiscardPending(ctx, sreq)
	}
	if err != nil && len(done) == 0 && errors.Is(err, store.ErrChanged) && len(expect) > 0 && !isJoined(err) {
		return nil, &Error{Code: CodeFileChanged, Msg: strings.TrimPrefix(err.Error(), "FILE_CHANGED: "), Err: err}
	}
	return done, err
}

// allow checks the workspace's work mode and deny rules for a pending change an apply
// would make: a person's apply is a write like any other.
func (r *Review) allow(ctx context.Context, c PendingChange) error {
	mode := r.w.workMode()
	op := OpWrite
	switch c.Kind {
	case store.PendingDeleted:
		op = OpDelete
	case store.PendingMoved:
		op = OpMove
	}
	if !mode.Allows(op) {
		return modeError(mode, op, c.Path)
	}
	for _, n := range []string{c.Path, c.From} {
		if n == "" {
			continue
		}
		if r.w.reservedPath(ctx, n) {
			return reservedError(n)
		}
		if rule, ok := r.w.denied(ctx, n); ok {
			return &Error{Code: CodePermissionDenied, Path: n,
				Msg: fmt.Sprintf("access denied: %s is protected by the workspace's deny rule %q; its pending change cannot be applied", n, rule)}
		}
	}
	return nil
}

// Resolve settles the pending change of the file p, at the version the person saw: take
// [TakeBase] discards it, [TakeAgent] applies the agent's version over whatever the base
// holds now, [TakeEdit] applies content instead.
func (r *Review) Resolve(ctx context.Context, p, version string, take Take, content []byte) ([]Resolved, error) {
	if r.s == nil {
		return nil, r.none()
	}
	names, err := r.names([]string{p})
	if err != nil {
		return nil, err
	}
	name := names[0]
	switch take {
	case TakeBase:
		return r.Discard(ctx, ReviewRequest{Paths: []string{p}, Expect: map[string]string{p: version}})
	case TakeAgent:
		f, err := r.s.Open(ctx, name)
		if err != nil {
			return nil, storeError(p, err)
		}
		content, err = io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, storeError(p, err)
		}
	case TakeEdit:
	default:
		return nil, &Error{Code: CodeInvalidArgument, Path: p, Msg: fmt.Sprintf("resolve: take %q: want base, agent or edit", take)}
	}
	// The apply below checks the mode and deny rules too, but only after the rebase has
	// changed the pending version: a refused resolve must leave it as the person saw it.
	if err := r.allowPending(ctx, name); err != nil {
		return nil, err
	}
	if err := r.s.Rebase(ctx, name, version, content); err != nil {
		if errors.Is(err, store.ErrChanged) {
			return nil, &Error{Code: CodeFileChanged, Path: p, Msg: strings.TrimPrefix(err.Error(), "FILE_CHANGED: "), Err: err}
		}
		return nil, storeError(p, err)
	}
	return r.Apply(ctx, ReviewRequest{Paths: []string{p}})
}

// allowPending asks [Review.allow] about the pending change of name, if there is one (the
// rebase reports one that is gone).
func (r *Review) allowPending(ctx context.Context, name string) error {
	cs, err := r.s.Pending(ctx)
	if err != nil {
		return storeError(name, err)
	}
	for _, c := range cs {
		if c.Path == name {
			return r.allow(ctx, c)
		}
	}
	return nil
}

// names turns paths into store names.
func (r *Review) names(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		n, err := r.w.storeName(p)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// below reports whether c is at or below one of names (all if none), or moved from one.
func below(c PendingChange, names []string) bool {
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if n == "." || c.Path == n || strings.HasPrefix(c.Path, n+"/") || c.From == n {
			return true
		}
	}
	return false
}

func isJoined(err error) bool {
	_, ok := err.(interface{ Unwrap() []error })
	return ok
}
