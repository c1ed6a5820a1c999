package overlay

import (
	"bytes"
	"context"
	"errors"
	"io/fs"

	"github.com/llmfs/llmfs/internal/merge3"
	"github.com/llmfs/llmfs/store"
)

// Merge bases: review is three-way. When the agent first changes a base file, the overlay
// keeps a copy of what the base held then (its merge base) in the upper store, under
// "b/" by content hash (the hash [state].Seen records), so it survives restarts with the
// rest of the pending state. The review diff is the agent's change against that copy,
// never the edits a person made to the base since; applying merges the agent's change
// into the base as it is now, line by line, and only regions both changed differently
// are conflicts.

// baseDir is the upper store's directory of merge bases.
const baseDir = "b"

// baseBlob returns the upper store's name of the merge base of hash h.
func baseBlob(h string) string { return baseDir + "/" + h }

// realHash reports whether a Seen value is the hash of a file's content (not "" for none,
// "dir", or [unreadableBase]).
func realHash(h string) bool { return h != "" && h != "dir" && h != unreadableBase }

// keepBase stores data as a merge base, unless the upper store has it already.
func (o *Overlay) keepBase(ctx context.Context, h string, data []byte) error {
	if _, err := o.upper.Store.Stat(ctx, baseBlob(h)); err == nil {
		return nil
	}
	if err := o.upper.Store.Mkdir(ctx, baseDir); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	_, err := o.upper.Store.WriteFile(ctx, baseBlob(h), bytes.NewReader(data), store.WriteOptions{})
	return err
}

// mergeBase returns the merge base of the base file name, and whether the overlay has it
// (it has none for a file the agent created, or changed before merge bases were kept).
// Callers hold o.mu.
func (o *Overlay) mergeBase(ctx context.Context, name string) ([]byte, bool, error) {
	h := o.st.Seen[name]
	if !realHash(h) {
		return nil, false, nil
	}
	if b, ok := o.cachedBase(h); ok {
		return b, true, nil
	}
	b, err := readAll(ctx, o.upper.Store, baseBlob(h))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, rename(err, name)
	}
	return b, true, nil
}

// pruneBases removes the merge bases no pending file refers to any more, in one
// transaction of the upper store when it can make one: an apply of 1,000 files removed
// 1,000 merge bases a transaction each, a fifth of its CPU. Callers hold o.mu.
func (o *Overlay) pruneBases(ctx context.Context) error {
	return o.upper.batch(ctx, func() error { return o.pruneBasesIn(ctx) })
}

// pruneBasesIn is pruneBases within the transaction, if any. It may run again.
func (o *Overlay) pruneBasesIn(ctx context.Context) error {
	es, err := o.upper.Store.ReadDir(ctx, baseDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	used := make(map[string]bool, len(o.st.Seen))
	for _, h := range o.st.Seen {
		used[h] = true
	}
	var unused []string
	for _, e := range es {
		if !used[e.Name()] {
			unused = append(unused, baseBlob(e.Name()))
		}
	}
	return o.upper.removeFiles(ctx, unused)
}

// merge prepares a step of a modified file whose base changed since the agent started
// from it: the agent's change (from the merge base to s.content) merged into the base as
// it is now (read through b). A clean merge sets what the base gets and the base hash it
// goes over; overlapping changes are a *[ConflictError] with both sides marked. A step
// whose base did not move, or that cannot merge (no merge base, binary, the base file
// gone), is left to [Overlay.check].
func (o *Overlay) merge(ctx context.Context, b store.Store, s *step) error {
	s.data, s.against = s.content, ""
	s.nowOK = false // a new plan: the base may have moved since the last
	if h, ok := s.snap.hash(); ok {
		s.now, s.nowOK = h, true // the plan's snapshot read the file already
	}
	p := s.p
	if p.Kind != Modified || !p.hasBase || p.Binary {
		return nil
	}
	cur, err := s.hashNow(ctx, b)
	if err != nil {
		return err
	}
	if cur == o.st.Seen[p.Path] || !realHash(cur) || cur == store.Hash(s.content) {
		return nil
	}
	now, err := readAll(ctx, b, p.Path)
	if err != nil {
		return rename(err, p.Path)
	}
	if bytes.IndexByte(now, 0) >= 0 {
		return nil
	}
	r := merge3.Merge(p.old, now, s.content, merge3.Options{Ours: "current", Base: "merge base", Theirs: "agent"})
	if !r.Clean() {
		return &ConflictError{Path: p.Path, What: "modified", Diff: string(r.Text)}
	}
	s.data, s.against = r.Text, cur
	return nil
}
