package overlay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// Kind says what a pending change does to a base path.
type Kind string

// The kinds of pending change.
const (
	Created  Kind = "created"
	Modified Kind = "modified"
	Deleted  Kind = "deleted"
	Moved    Kind = "moved"
)

// DiffContext is the number of context lines of review diffs; hunk numbers count the hunks
// of diffs with this context.
const DiffContext = 3

// A Change is one pending change, per file: directories follow their files.
type Change struct {
	Path    string `json:"path"`
	Kind    Kind   `json:"kind"`
	From    string `json:"from,omitempty"` // the base path a moved file came from
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Binary  bool   `json:"binary,omitempty"`
	Hunks   int    `json:"hunks"`
}

// A ConflictError reports a pending change whose base file changed since the agent first
// read or wrote it: the change is not applied. It wraps [store.ErrChanged]; llmfs reports
// it as FILE_CHANGED.
type ConflictError struct {
	Path string // the base path that changed
	What string // what changed: "modified", "deleted" or "created" behind the agent
	Diff string // the base as it is now against the pending version
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("FILE_CHANGED: %s was %s on the base since the agent first read or wrote it; not applied", e.Path, e.What)
}

func (e *ConflictError) Unwrap() error { return store.ErrChanged }

// A Resolution is what [Overlay.Apply] or [Overlay.Discard] did with one change.
type Resolution struct {
	Change
	Action string `json:"action"` // "applied" or "discarded"
	Hunks  []int  `json:"applied_hunks,omitempty"`
}

// OnResolve, when set, is called after each change is applied or discarded, with the lock
// held, to tell a caller as it goes (the journal needs no hook: see the package's
// journaling notes). An error stops the operation.
type OnResolve func(ctx context.Context, r Resolution) error

// SetOnResolve sets the hook called after each change is applied or discarded.
func (o *Overlay) SetOnResolve(fn OnResolve) {
	o.mu.Lock()
	o.onResolve = fn
	o.mu.Unlock()
}

// pending is a Change with the two versions it goes between.
type pending struct {
	Change
	old, new []byte
}

// Pending lists the pending changes, sorted by path. It reads the state again first: the
// agent may be working in another process on the same upper store.
func (o *Overlay) Pending(ctx context.Context) ([]Change, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	ps, err := o.pending(ctx, true)
	if err != nil {
		return nil, err
	}
	out := make([]Change, len(ps))
	for i, p := range ps {
		out[i] = p.Change
	}
	return out, nil
}

// Diff returns the unified diff of the pending changes below or at paths (all if none),
// reading the state again first, as [Overlay.Pending] does.
func (o *Overlay) Diff(ctx context.Context, paths ...string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return "", err
	}
	ps, err := o.pending(ctx, true)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, p := range ps {
		if match(p.Path, paths) {
			sb.WriteString(diffOf(p))
		}
	}
	return sb.String(), nil
}

func diffOf(p pending) string {
	head := ""
	if p.Kind == Moved {
		head = fmt.Sprintf("rename from %s\nrename to %s\n", p.From, p.Path)
	}
	if p.Binary {
		return head + fmt.Sprintf("Binary file %s %s\n", p.Path, p.Kind)
	}
	d := textdiff.Unified(p.Path, string(p.old), string(p.new), DiffContext, 0)
	if d == "" && head != "" {
		d = fmt.Sprintf("--- a/%s\n+++ b/%s\n", p.From, p.Path)
	}
	return head + d
}

// match reports whether name is one of paths or below one; no paths match everything.
func match(name string, paths []string) bool {
	if len(paths) == 0 {
		return true
	}
	for _, p := range paths {
		p = strings.TrimSuffix(p, "/")
		if p == "." || p == "" || name == p || strings.HasPrefix(name, p+"/") {
			return true
		}
	}
	return false
}

// pending computes the pending changes. Callers hold o.mu.
func (o *Overlay) pending(ctx context.Context, counts bool) ([]pending, error) {
	var out []pending
	upperFiles := map[string]bool{}
	var walkUpper func(dir string) error
	walkUpper = func(dir string) error {
		es, err := o.upper.ReadDir(ctx, up(dir))
		if err != nil {
			return err
		}
		for _, e := range es {
			name := join(dir, e.Name())
			if e.IsDir() {
				if err := walkUpper(name); err != nil {
					return err
				}
				continue
			}
			upperFiles[name] = true
			nb, err := readAll(ctx, o.upper, up(name))
			if err != nil {
				return rename(err, name)
			}
			p := pending{Change: Change{Path: name}, new: nb}
			if from, ok := o.st.From[name]; ok {
				p.Kind, p.From = Moved, from
				if p.old, err = readBase(ctx, o.base, from); err != nil {
					return err
				}
			} else if ob, err := readAll(ctx, o.base, name); err == nil {
				if bytes.Equal(ob, nb) {
					continue
				}
				p.Kind, p.old = Modified, ob
			} else if absent(err) {
				p.Kind = Created
			} else {
				return err // unreadable is not absent: the change would pass for a creation
			}
			out = append(out, p)
		}
		return nil
	}
	if err := walkUpper("."); err != nil {
		return nil, err
	}
	sources := map[string]bool{}
	for _, from := range o.st.From {
		sources[from] = true
	}
	deleted := map[string]bool{}
	var walkBase func(name string) error
	walkBase = func(name string) error {
		fi, err := store.Lstat(ctx, o.base, name)
		if absent(err) {
			return nil // gone from the base already
		}
		if err != nil {
			return err
		}
		if fi.IsDir() {
			es, err := o.base.ReadDir(ctx, name)
			if err != nil {
				return rename(err, name)
			}
			for _, e := range es {
				if err := walkBase(join(name, e.Name())); err != nil {
					return err
				}
			}
			return nil
		}
		if upperFiles[name] || sources[name] || deleted[name] {
			return nil
		}
		deleted[name] = true
		ob, err := readBase(ctx, o.base, name)
		if err != nil {
			return err
		}
		out = append(out, pending{Change: Change{Path: name, Kind: Deleted}, old: ob})
		return nil
	}
	for w := range o.st.Whiteouts {
		if err := walkBase(w); err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if counts {
		for i := range out {
			p := &out[i]
			if bytes.IndexByte(p.old, 0) >= 0 || bytes.IndexByte(p.new, 0) >= 0 {
				p.Binary = true
				p.Hunks = 1
				continue
			}
			for _, h := range textdiff.Hunks(string(p.old), string(p.new), DiffContext) {
				p.Added += h.Added
				p.Removed += h.Removed
				p.Hunks++
			}
		}
	}
	return out, nil
}

func readAll(ctx context.Context, s store.Store, name string) ([]byte, error) {
	f, err := s.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// readBase reads the base file name; one that does not exist (any more) reads as empty.
func readBase(ctx context.Context, s store.Store, name string) ([]byte, error) {
	b, err := readAll(ctx, s, name)
	if absent(err) {
		return nil, nil
	}
	return b, err
}

// pick returns the version of a change with the chosen hunks (1-based) taken from the new
// version and the others from the old, and whether that is the whole change.
func pick(p pending, hunks []int) ([]byte, bool, error) {
	if len(hunks) == 0 {
		return p.new, true, nil
	}
	if p.Kind != Modified && p.Kind != Created || p.Binary {
		return nil, false, fmt.Errorf("%s: %s %w: only text changes apply or discard by hunk", p.Path, p.Kind, fs.ErrInvalid)
	}
	n := len(textdiff.Hunks(string(p.old), string(p.new), DiffContext))
	all := true
	for i := 1; i <= n; i++ {
		all = all && slices.Contains(hunks, i)
	}
	for _, h := range hunks {
		if h < 1 || h > n {
			return nil, false, fmt.Errorf("%s has %d hunks, no hunk %d: %w", p.Path, n, h, fs.ErrInvalid)
		}
	}
	if all {
		return p.new, true, nil
	}
	out := textdiff.Pick(string(p.old), string(p.new), DiffContext, func(i int) bool { return slices.Contains(hunks, i+1) })
	return []byte(out), false, nil
}

// Apply writes the pending changes at or below paths (all if none) onto the base, each file
// atomically and only if the base still holds what the agent first saw there: a file
// changed since is a *[ConflictError], left pending, and the others still apply. With
// hunks (1-based, as [Overlay.Diff] numbers them), only those hunks of each text file
// apply. A crash between files leaves every file old or new; applying again resumes.
// When the base keeps a journal, the call is one change set there by [Actor] (see the
// package's journaling notes), so it can be undone.
// It returns what was applied and the conflicts joined into one error.
func (o *Overlay) Apply(ctx context.Context, paths []string, hunks []int) (_ []Resolution, rerr error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	// The state is saved once, at the end: a crash before leaves each file old or new,
	// and applying again finds the new ones in place and goes on.
	defer func() {
		if err := o.save(ctx); err != nil && rerr == nil {
			rerr = err
		}
	}()
	ps, err := o.pending(ctx, true)
	if err != nil {
		return nil, err
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
	if len(steps) > 0 || len(dirs) > 0 || o.whiteoutsIn(paths) {
		err = o.onBase(ctx, OpApply, func(b *baseTx) error {
			if err := o.applyBatch(ctx, b, steps, dirs); err != nil {
				return err
			}
			prunedDirs = o.pruneWhiteouts(ctx, b, paths)
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
		if name := o.applied(s); name != "" {
			drop = append(drop, name)
		}
		done = append(done, Resolution{Change: s.p.Change, Action: "applied", Hunks: hunks})
	}
	// The upper copies of what landed go, in one transaction of the upper store if it can.
	err = o.upper.batch(ctx, func() error {
		for _, name := range drop {
			if err := o.upper.Remove(ctx, up(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return rename(err, name)
			}
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
	content []byte   // what the base gets
	whole   bool     // content is the whole change (not some of its hunks)
	pruned  []string // base directories removed with it
	err     error
}

// check returns a conflict unless the base (b) at name holds what the agent saw, or already
// holds want (an apply that a crash interrupted).
func (o *Overlay) check(ctx context.Context, b store.Store, name, want string, p pending) (already bool, err error) {
	cur, err := baseHash(ctx, b, name)
	if err != nil {
		return false, err
	}
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
	now, _ := readAll(ctx, b, name)
	c.Diff = textdiff.Unified(name, string(now), string(p.new), DiffContext, 200)
	return false, c
}

// applyBase makes the base part of a step: it reads and changes the base through b only,
// and leaves the overlay's state alone (see [Overlay.onBase]).
func (o *Overlay) applyBase(ctx context.Context, b *baseTx, s *step) error {
	p := s.p
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
		if _, err := o.check(ctx, b.s, p.Path, store.Hash(s.content), p); err != nil {
			return err
		}
		if _, err := o.check(ctx, b.s, p.From, "", p); err != nil {
			return err
		}
	}
	already, err := o.check(ctx, b.s, p.Path, store.Hash(s.content), p)
	if err != nil {
		return err
	}
	if !already {
		if err := o.baseDirs(ctx, b, path.Dir(p.Path)); err != nil {
			return err
		}
		opts := store.WriteOptions{}
		if seen, ok := o.st.Seen[p.Path]; ok && seen != "" {
			opts.IfMatch = seen
		} else if ok {
			opts.IfAbsent = true
		}
		if err := b.write(ctx, p.Path, p.From, s.content, opts); err != nil {
			if errors.Is(err, store.ErrChanged) {
				if _, cerr := o.check(ctx, b.s, p.Path, store.Hash(s.content), p); cerr != nil {
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
func (o *Overlay) applied(s *step) string {
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
	o.st.Seen[p.Path] = store.Hash(s.content)
	if !s.whole || o.hidden(p.Path) {
		// What stays in the upper store is the rest of the change, or (under a hidden
		// parent) a copy of the base's new file that keeps it visible.
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
		if o.upperHas(dir) || !o.hidden(dir) {
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
	if o.upperHas(dir) || !o.hidden(dir) {
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

// Discard drops the pending changes at or below paths (all if none): the overlay shows
// the base's version again. With hunks, only those hunks of each text file are dropped.
// When the base keeps a journal, what was discarded is recorded there, one change set by
// [Actor] whose entries leave each file as it is (see the package's journaling notes).
func (o *Overlay) Discard(ctx context.Context, paths []string, hunks []int) (_ []Resolution, rerr error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	// The state is saved once, at the end: a crash before leaves each file old or new,
	// and discarding again finds the new ones in place and goes on.
	defer func() {
		if err := o.save(ctx); err != nil && rerr == nil {
			rerr = err
		}
	}()
	ps, err := o.pending(ctx, true)
	if err != nil {
		return nil, err
	}
	var done []Resolution
	var errs []error
	for _, p := range ps {
		if !match(p.Path, paths) {
			continue
		}
		if err := o.discard(ctx, p, hunks); err != nil {
			errs = append(errs, err)
			continue
		}
		r := Resolution{Change: p.Change, Action: "discarded", Hunks: hunks}
		if o.onResolve != nil {
			if err := o.onResolve(ctx, r); err != nil {
				return done, err
			}
		}
		done = append(done, r)
	}
	if err := o.emptyDirs(ctx, ".", paths); err != nil {
		errs = append(errs, err)
	}
	if len(done) > 0 {
		err := o.onBase(ctx, OpDiscard, func(b *baseTx) error {
			for _, r := range done {
				if err := b.note(ctx, r.Path, r.From); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("the discard is done, but the journal did not record it: %w", err))
		}
	}
	return done, errors.Join(errs...)
}

// filelessDirs returns the directories of the upper store at or below paths that hold no
// file, at any depth, and are not whited out (opaque), parents first: applying makes them
// on the base. It also reports whether dir holds a file.
func (o *Overlay) filelessDirs(ctx context.Context, dir string, paths []string) ([]string, bool, error) {
	es, err := o.upper.ReadDir(ctx, up(dir))
	if err != nil {
		return nil, false, rename(err, dir)
	}
	var out []string
	files := false
	for _, e := range es {
		if !e.IsDir() {
			files = true
			continue
		}
		name := join(dir, e.Name())
		sub, has, err := o.filelessDirs(ctx, name, paths)
		if err != nil {
			return nil, false, err
		}
		files = files || has
		if !has && match(name, paths) && !o.st.Whiteouts[name] {
			out = append(out, name)
		}
		out = append(out, sub...)
	}
	return out, files, nil
}

// emptyDirs removes the empty directories of the upper store at or below paths, deepest
// first, once their content is applied or discarded. A whited-out (opaque) directory
// stays: it hides the base's.
func (o *Overlay) emptyDirs(ctx context.Context, dir string, paths []string) error {
	es, err := o.upper.ReadDir(ctx, up(dir))
	if err != nil {
		return rename(err, dir)
	}
	for _, e := range es {
		if !e.IsDir() {
			continue
		}
		name := join(dir, e.Name())
		if err := o.emptyDirs(ctx, name, paths); err != nil {
			return err
		}
		if sub, err := o.upper.ReadDir(ctx, up(name)); err != nil || len(sub) > 0 {
			continue
		}
		if !match(name, paths) || o.st.Whiteouts[name] {
			continue
		}
		if err := o.upper.Remove(ctx, up(name)); err != nil {
			return rename(err, name)
		}
	}
	return nil
}

func (o *Overlay) discard(ctx context.Context, p pending, hunks []int) error {
	if len(hunks) > 0 {
		// Keep the hunks not named: the old version with those taken from the new.
		if p.Kind != Modified && p.Kind != Created || p.Binary {
			return fmt.Errorf("%s: %s %w: only text changes apply or discard by hunk", p.Path, p.Kind, fs.ErrInvalid)
		}
		n := len(textdiff.Hunks(string(p.old), string(p.new), DiffContext))
		var keep []int
		for i := 1; i <= n; i++ {
			if !slices.Contains(hunks, i) {
				keep = append(keep, i)
			}
		}
		if _, _, err := pick(p, hunks); err != nil {
			return err
		}
		if len(keep) > 0 {
			content, _, err := pick(p, keep)
			if err != nil {
				return err
			}
			_, err = o.upper.WriteFile(ctx, up(p.Path), bytes.NewReader(content), store.WriteOptions{})
			return rename(err, p.Path)
		}
	}
	switch p.Kind {
	case Deleted:
		return o.restore(ctx, p.Path)
	case Moved:
		if err := o.dropUpper(ctx, p.Path); err != nil {
			return err
		}
		delete(o.st.From, p.Path)
		return o.restore(ctx, p.From)
	default:
		return o.dropUpper(ctx, p.Path)
	}
}

// dropUpper removes the upper file at name; a base file there shows again.
func (o *Overlay) dropUpper(ctx context.Context, name string) error {
	if err := o.upper.Remove(ctx, up(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rename(err, name)
	}
	delete(o.st.From, name)
	if _, err := o.base.Stat(ctx, name); err == nil {
		return o.restore(ctx, name)
	}
	delete(o.st.Seen, name)
	return nil
}

// restore makes the base file at name show through again: its whiteout goes, or, when a
// parent hides it, a copy of it goes to the upper store (equal to the base, so not pending).
func (o *Overlay) restore(ctx context.Context, name string) error {
	delete(o.st.Whiteouts, name)
	delete(o.st.Seen, name)
	if !o.hidden(name) {
		return nil
	}
	if err := o.upperDirs(ctx, path.Dir(name)); err != nil {
		return err
	}
	f, err := o.base.Open(ctx, name)
	if err != nil {
		return rename(err, name)
	}
	defer f.Close()
	_, err = o.upper.WriteFile(ctx, up(name), f, store.WriteOptions{})
	return rename(err, name)
}
