package overlay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// Discard: pending changes of the upper layer dropped, the base showing again.

// Discard drops the pending changes at or below paths (all if none): the overlay shows
// the base's version again. With hunks, only those hunks of each text file are dropped.
// When the base keeps a journal, what was discarded is recorded there, one change set by
// [Actor] whose entries leave each file as it is (see the package's journaling notes).
func (o *Overlay) Discard(ctx context.Context, paths []string, hunks []int) ([]Resolution, error) {
	return o.DiscardPending(ctx, store.ReviewRequest{Paths: paths, Hunks: hunks})
}

// DiscardPending implements [store.Reviewable]: [Overlay.Discard] of req's paths and
// hunks, refused with nothing touched when a version of req.Expect moved, journaled under
// req.Actor when it names one.
func (o *Overlay) DiscardPending(ctx context.Context, req store.ReviewRequest) (_ []Resolution, rerr error) {
	paths, hunks := req.Paths, req.Hunks
	o.mu.Lock()
	defer o.mu.Unlock()
	defer o.callAs(req.Actor)()
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	// The state is saved once, at the end: a crash before leaves each file old or new,
	// and discarding again finds the new ones in place and goes on.
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
		r := Resolution{PendingChange: p.Change, Action: "discarded", Hunks: hunks}
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
	_, err := o.base.Stat(ctx, name)
	switch {
	case err == nil:
		return o.restore(ctx, name)
	case !absent(err):
		return err // unreadable is not absent: the whiteout stays until the base answers
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
