package overlay

import (
	"context"
	"fmt"
	"io"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

// Large files. A pending file larger than largeFile, on either side, is never read whole
// into memory (a FUSE mount's 1 GiB file): it is compared by hash, reviewed as a binary
// file (no line counts, no hunks, no diff, no merge: it applies or is discarded whole),
// and streamed from the upper store to the base when applied.

// largeFile is the size above which a file is handled as large.
const largeFile = 16 << 20

// large is what a pending large file carries instead of its contents.
type large struct {
	newHash string // of the upper file
	newSize int64
	oldHash string // of the side it is reviewed against (the base file, or the move's source)
}

// isLargeEntry is whether the change of an upper file listed as e is large (see above): the listing gives its
// size; bfi and berr are the base's Stat of the side it is reviewed against.
func isLargeEntry(e fs.DirEntry, bfi fs.FileInfo, berr error) bool {
	if fi, err := e.Info(); err == nil && fi.Size() > largeFile {
		return true
	}
	return berr == nil && !bfi.IsDir() && bfi.Size() > largeFile
}

// pendingLarge is [Overlay.pendingFile] of a large file: by hashes, as a binary file.
func (o *Overlay) pendingLarge(ctx context.Context, name string) (pending, bool, error) {
	fi, err := o.upper.Stat(ctx, up(name))
	if err != nil {
		return pending{}, false, rename(err, name)
	}
	nh, err := baseHash(ctx, o.upper, up(name))
	if err != nil {
		return pending{}, false, rename(err, name)
	}
	p := pending{Change: Change{Path: name, Binary: true, Hunks: 1}, large: &large{newHash: nh, newSize: fi.Size()}}
	if from, ok := o.st.From[name]; ok {
		p.Kind, p.From = Moved, from
		p.large.oldHash, err = baseHash(ctx, o.base, from)
		return p, err == nil, err
	}
	cur, err := baseHash(ctx, o.base, name)
	if err != nil {
		return pending{}, false, err // unreadable: the change cannot be checked
	}
	seen, hasSeen := o.st.Seen[name]
	switch {
	case cur == nh || (hasSeen && seen == nh):
		return pending{}, false, nil // nothing to apply: the base holds it, or the agent's change undid itself
	case hasSeen && seen == "":
		p.Kind = Created // by the agent, whatever the base holds now
	case cur == "":
		p.Kind = Created
	default:
		p.Kind, p.large.oldHash = Modified, cur
	}
	return p, true, nil
}

// newHash is the hash of the agent's side of a step: what the base gets when it is whole.
func (s *step) newHash() string {
	if s.p.large != nil {
		return s.p.large.newHash
	}
	return store.Hash(s.content)
}

// dataHash is the hash of what the base gets.
func (s *step) dataHash() string {
	if s.p.large != nil {
		return s.p.large.newHash
	}
	return store.Hash(s.data)
}

// openNew opens the upper file of a large step, to stream it to the base.
func (o *Overlay) openNew(ctx context.Context, s *step) (io.ReadCloser, error) {
	f, err := o.upper.Open(ctx, up(s.p.Path))
	if err != nil {
		return nil, rename(err, s.p.Path)
	}
	return f, nil
}

// writeLarge writes the large step s to the base through b, streamed from the upper store.
func (o *Overlay) writeLarge(ctx context.Context, b *baseTx, s *step, opts store.WriteOptions) error {
	l := s.p.large
	after := store.Version{Kind: store.File, Hash: l.newHash, Size: l.newSize}
	return b.record(ctx, func() (store.Plan, error) {
		before, old, err := b.snapshot(ctx, s.p.Path)
		if err != nil {
			return store.Plan{}, err
		}
		c := &store.Change{Op: b.op, Path: s.p.Path, Other: s.p.From, Before: before, After: after}
		return store.Plan{Changes: []*store.Change{c}, Blobs: [][]byte{old}}, nil
	}, func() error { return o.streamLarge(ctx, b.s, s, opts) })
}

// streamLarge writes the upper file of the large step s to the base store bs, and checks
// that it was the content the step was planned with.
func (o *Overlay) streamLarge(ctx context.Context, bs store.Store, s *step, opts store.WriteOptions) error {
	f, err := o.openNew(ctx, s)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := bs.WriteFile(ctx, s.p.Path, f, opts)
	if err == nil && n != s.p.large.newSize {
		err = fmt.Errorf("%s changed in the upper store while it was applied (%d bytes, planned %d): %w", s.p.Path, n, s.p.large.newSize, store.ErrChanged)
	}
	return err
}

// largeConflictDiff stands for the diff of a conflict on a large file.
const largeConflictDiff = "(a large file: no diff)\n"
