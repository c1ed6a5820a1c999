package overlay

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"sort"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// Apply: pending changes of the upper layer carried into the base.

// Apply writes the pending changes at or below paths (all if none) onto the base, each file
// atomically and only if the base still holds what the agent first saw there: a file
// changed since is a *[ConflictError], left pending, and the others still apply. With
// hunks (1-based, as [Overlay.Diff] numbers them), only those hunks of each text file
// apply. A crash between files leaves every file old or new; applying again resumes.
// When the base keeps a journal, the call is one change set there by [Actor] (see the
// package's journaling notes), so it can be undone.
// It returns what was applied and the conflicts joined into one error.
func (o *Overlay) Apply(ctx context.Context, paths []string, hunks []int) ([]Resolution, error) {
	return o.ApplyPending(ctx, store.ReviewRequest{Paths: paths, Hunks: hunks})
}

// ApplyPending implements [store.Reviewable]: [Overlay.Apply] of req's paths and hunks,
// refused with nothing touched when a version of req.Expect moved, journaled under
// req.Actor when it names one.
func (o *Overlay) ApplyPending(ctx context.Context, req store.ReviewRequest) ([]Resolution, error) {
	return o.applyPending(ctx, req, nil)
}

// A Beneath makes changes on the base in an apply's change set: s is the store to change
// (the change set's, when the base keeps a journal: tx, else the base, tx nil). It may run
// again (a SQL base retries a transaction PostgreSQL aborted), so it must be safe to repeat.
type Beneath func(ctx context.Context, s store.Store, tx store.JournalTx) error

// ApplyBeneath is [Overlay.Apply] of paths (all hunks) that also runs beneath in the same
// change set of the base's journal, after the pending changes landed, even when none is
// pending: what a mount's session made below its layer (symbolic links, modes) goes with
// the contents it applies, so that undoing the set takes both back.
func (o *Overlay) ApplyBeneath(ctx context.Context, paths []string, beneath Beneath) ([]Resolution, error) {
	return o.applyPending(ctx, store.ReviewRequest{Paths: paths}, beneath)
}

func (o *Overlay) applyPending(ctx context.Context, req store.ReviewRequest, beneath Beneath) (_ []Resolution, rerr error) {
	paths, hunks := req.Paths, req.Hunks
	o.mu.Lock()
	defer o.mu.Unlock()
	defer o.callAs(req.Actor)()
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	// The state is saved once, at the end: a crash before leaves each file old or new,
	// and applying again finds the new ones in place and goes on.
	defer func() {
		err := o.save(ctx)
		if err == nil {
			err = o.pruneBases(ctx)
		}
		if err != nil && rerr == nil {
			rerr = err
		}
	}()
	ps, err := o.pending(ctx, true)
	if err != nil {
		return nil, err
	}
	if err := expect(ps, req.Expect); err != nil {
		return nil, err
	}
	if req.Allow != nil {
		for _, p := range ps {
			if !match(p.Path, paths) && !(p.From != "" && match(p.From, paths)) {
				continue
			}
			if err := req.Allow(p.Change); err != nil {
				return nil, err
			}
		}
	}
	var steps []*step
	var errs []error
	for _, p := range ps {
		if !match(p.Path, paths) {
			continue
		}
		content, whole, err := pick(p, hunks)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		steps = append(steps, &step{p: p, content: content, whole: whole})
	}
	dirs, _, err := o.filelessDirs(ctx, ".", paths)
	if err != nil {
		return nil, err
	}
	var prunedDirs []string
	if len(steps) > 0 || len(dirs) > 0 || o.whiteoutsIn(paths) || beneath != nil {
		err = o.onBase(ctx, OpApply, func(b *baseTx) error {
			if err := o.applyBatch(ctx, b, steps, dirs); err != nil {
				return err
			}
			prunedDirs = o.pruneWhiteouts(ctx, b, paths)
			if beneath != nil {
				return beneath(ctx, b.s, b.tx)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, d := range prunedDirs {
		delete(o.st.Whiteouts, d)
	}
	var done []Resolution
	var drop []string
	for _, s := range steps {
		if s.err != nil {
			errs = append(errs, s.err)
			continue
		}
		if name := o.applied(ctx, s); name != "" {
			drop = append(drop, name)
		}
		done = append(done, Resolution{PendingChange: s.p.Change, Action: "applied", Hunks: hunks})
	}
	// The upper copies of what landed go, in one transaction of the upper store if it can.
	err = o.upper.batch(ctx, func() error {
		ups := make([]string, len(drop))
		for i, name := range drop {
			ups[i] = up(name)
		}
		if err := o.upper.removeFiles(ctx, ups); err != nil {
			return err
		}
		return o.emptyDirs(ctx, ".", paths)
	})
	if err != nil {
		errs = append(errs, err)
	}
	if o.onResolve != nil {
		for _, r := range done {
			if err := o.onResolve(ctx, r); err != nil {
				return done, errors.Join(append(errs, err)...)
			}
		}
	}
	return done, errors.Join(errs...)
}

// step is one pending change on its way to the base.
type step struct {
	p       pending
	content []byte   // the merge base with the change's chosen hunks: the agent's side
	data    []byte   // what the base gets: content, merged into a base that moved
	against string   // the base hash data was merged against, "" when not merged
	whole   bool     // content is the whole change (not some of its hunks)
	pruned  []string // base directories removed with it
	err     error
	now     string // the base's hash at p.Path, read once for the merge and the check
	nowOK   bool   // now was read since the step was last planned
	snap    *snap  // the journal's snapshot of p.Path taken for this plan, if any (batch.go)
}

// hashNow returns the hash of what the base (b) holds at the step's path, read once per
// plan: the merge and the check both need it, and each read and hashed the file (an
// apply of 1,000 files read each base file twice for it).
func (s *step) hashNow(ctx context.Context, b store.Store) (string, error) {
	if !s.nowOK {
		h, err := baseHash(ctx, b, s.p.Path)
		if err != nil {
			return "", err
		}
		s.now, s.nowOK = h, true
	}
	return s.now, nil
}

// check returns a conflict unless the base (b) at name holds what the agent saw, or already
// holds want (an apply that a crash interrupted).
func (o *Overlay) check(ctx context.Context, b store.Store, name, want string, p pending) (already bool, err error) {
	cur, err := baseHash(ctx, b, name)
	if err != nil {
		return false, err
	}
	return o.checkHash(ctx, b, name, want, p, cur)
}

// checkHash is [Overlay.check] with the base's hash at name, cur, read already.
func (o *Overlay) checkHash(ctx context.Context, b store.Store, name, want string, p pending, cur string) (already bool, err error) {
	if cur == want {
		return true, nil
	}
	seen, ok := o.st.Seen[name]
	if !ok || cur == seen {
		return false, nil
	}
	c := &ConflictError{Path: name}
	switch {
	case cur == "":
		c.What = "deleted"
	case seen == "":
		c.What = "created"
	default:
		c.What = "modified"
	}
	if p.large != nil {
		c.Diff = largeConflictDiff
		return false, c
	}
	now, _ := readAll(ctx, b, name)
	c.Diff = textdiff.Unified(name, string(now), string(p.new), DiffContext, 200)
	return false, c
}

// checkStep is [Overlay.check] of a step's file, against the base hash its content was
// merged with when it was.
func (o *Overlay) checkStep(ctx context.Context, b store.Store, s *step) (already bool, err error) {
	want := s.dataHash()
	cur, err := s.hashNow(ctx, b)
	if err != nil {
		return false, err
	}
	if s.against == "" {
		return o.checkHash(ctx, b, s.p.Path, want, s.p, cur)
	}
	if cur == want {
		return err == nil, err
	}
	if cur != s.against {
		return false, &ConflictError{Path: s.p.Path, What: "modified", Diff: "(the file changed again while it was merged)\n"}
	}
	return false, nil
}

// writeOpts returns the compare-and-swap of a step's write: the base as the agent saw it,
// or as the merge saw it.
func (o *Overlay) writeOpts(s *step) store.WriteOptions {
	if s.against != "" {
		return store.WriteOptions{IfMatch: s.against}
	}
	if seen, ok := o.st.Seen[s.p.Path]; ok && seen != "" {
		return store.WriteOptions{IfMatch: seen}
	} else if ok {
		return store.WriteOptions{IfAbsent: true}
	}
	return store.WriteOptions{}
}

// applyBase makes the base part of a step: it reads and changes the base through b only,
// and leaves the overlay's state alone (see [Overlay.onBase]).
func (o *Overlay) applyBase(ctx context.Context, b *baseTx, s *step) error {
	p := s.p
	if err := o.merge(ctx, b.s, s); err != nil {
		return err
	}
	switch p.Kind {
	case Deleted:
		already, err := o.check(ctx, b.s, p.Path, "", p)
		if err != nil {
			return err
		}
		if !already {
			if err := b.remove(ctx, p.Path, ""); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		s.pruned = o.pruneBase(ctx, b, path.Dir(p.Path))
		return nil
	case Moved:
		if _, err := o.check(ctx, b.s, p.Path, s.newHash(), p); err != nil {
			return err
		}
		if _, err := o.check(ctx, b.s, p.From, "", p); err != nil {
			return err
		}
	}
	already, err := o.checkStep(ctx, b.s, s)
	if err != nil {
		return err
	}
	if !already {
		if err := o.baseDirs(ctx, b, path.Dir(p.Path)); err != nil {
			return err
		}
		write := func() error { return b.write(ctx, p.Path, p.From, s.data, o.writeOpts(s)) }
		if p.large != nil {
			write = func() error { return o.writeLarge(ctx, b, s, o.writeOpts(s)) }
		}
		if err := write(); err != nil {
			if errors.Is(err, store.ErrChanged) {
				s.nowOK = false // the base moved since the check
				if _, cerr := o.checkStep(ctx, b.s, s); cerr != nil {
					return cerr
				}
			}
			return err
		}
	}
	if p.Kind == Moved {
		if _, err := store.Lstat(ctx, b.s, p.From); err == nil {
			if err := b.remove(ctx, p.From, p.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		s.pruned = o.pruneBase(ctx, b, path.Dir(p.From))
	}
	return nil
}

// applied settles the overlay's state once a step's base part landed, and returns the
// upper file to remove, if any.
func (o *Overlay) applied(ctx context.Context, s *step) string {
	p := s.p
	for _, d := range s.pruned {
		delete(o.st.Whiteouts, d)
	}
	switch p.Kind {
	case Deleted:
		o.forget(p.Path)
		return ""
	case Moved:
		o.forget(p.From)
		delete(o.st.From, p.Path)
	}
	if p.large != nil && o.hidden(p.Path) {
		o.st.Seen[p.Path] = p.large.newHash // no merge base kept: the next apply checks against the base as is
		return ""
	}
	if !s.whole || o.hidden(p.Path) {
		// What stays in the upper store is the rest of the change, or (under a hidden
		// parent) a copy of the agent's file that keeps it visible. Its merge base is now
		// what the agent's side of the apply was, so that the rest is reviewed as the
		// agent's alone and what the base holds besides (a person's edit) merges.
		h := store.Hash(s.content)
		if s.against != "" && o.keepBase(ctx, h, s.content) != nil {
			h = store.Hash(s.data) // no copy: the next apply checks against the base as is
		} else if s.against == "" {
			_ = o.keepBase(ctx, h, s.content)
		}
		o.st.Seen[p.Path] = h
		return ""
	}
	delete(o.st.Seen, p.Path)
	return p.Path
}

// forget drops the state of a base path whose deletion was applied or discarded.
func (o *Overlay) forget(name string) {
	delete(o.st.Whiteouts, name)
	delete(o.st.Seen, name)
}

// baseDirs creates dir and its parents on the base.
func (o *Overlay) baseDirs(ctx context.Context, b *baseTx, dir string) error {
	if dir == "." {
		return nil
	}
	if fi, err := b.s.Stat(ctx, dir); err == nil {
		if !fi.IsDir() {
			return pathErr("apply", dir, store.ErrNotDir)
		}
		return nil
	}
	if err := o.baseDirs(ctx, b, path.Dir(dir)); err != nil {
		return err
	}
	if err := b.mkdir(ctx, dir); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// pruneBase removes the empty base directories at and above dir that the overlay no
// longer shows (their deletion or move was applied), and returns them.
func (o *Overlay) pruneBase(ctx context.Context, b *baseTx, dir string) []string {
	var pruned []string
	for ; dir != "."; dir = path.Dir(dir) {
		if o.upperHas(ctx, dir) || !o.hidden(dir) {
			return pruned // the overlay still shows it
		}
		if es, err := b.s.ReadDir(ctx, dir); err != nil || len(es) > 0 {
			return pruned
		}
		if err := b.remove(ctx, dir, ""); err != nil {
			return pruned
		}
		pruned = append(pruned, dir)
	}
	return pruned
}

// whiteoutsIn reports whether a whiteout lies at or below paths.
func (o *Overlay) whiteoutsIn(paths []string) bool {
	for w := range o.st.Whiteouts {
		if match(w, paths) {
			return true
		}
	}
	return false
}

// pruneWhiteouts removes from the base the directories whited out at or below paths that
// hold nothing once the steps are applied: an empty directory's removal or move is no
// file's change, so no step takes it away. It returns what it removed.
func (o *Overlay) pruneWhiteouts(ctx context.Context, b *baseTx, paths []string) []string {
	var ws []string
	for w := range o.st.Whiteouts {
		if match(w, paths) {
			ws = append(ws, w)
		}
	}
	sort.Strings(ws)
	var pruned []string
	for _, w := range ws {
		if o.pruneTree(ctx, b, w, &pruned) {
			pruned = append(pruned, o.pruneBase(ctx, b, path.Dir(w))...)
		}
	}
	return pruned
}

// pruneTree removes the hidden base directory dir if it, and every directory below it,
// holds nothing else, deepest first, adding each to pruned; it reports whether dir went.
func (o *Overlay) pruneTree(ctx context.Context, b *baseTx, dir string, pruned *[]string) bool {
	if o.upperHas(ctx, dir) || !o.hidden(dir) {
		return false // the overlay still shows it
	}
	fi, err := store.Lstat(ctx, b.s, dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	es, err := b.s.ReadDir(ctx, dir)
	if err != nil {
		return false
	}
	empty := true
	for _, e := range es {
		empty = e.IsDir() && o.pruneTree(ctx, b, join(dir, e.Name()), pruned) && empty
	}
	if !empty || b.remove(ctx, dir, "") != nil {
		return false
	}
	*pruned = append(*pruned, dir)
	return true
}
