package overlay

import (
	"bytes"
	"context"

	"github.com/llmfs/llmfs/store"
)

// Journaling. When the base keeps a journal ([store.Journaler]), [Overlay.Apply] and
// [Overlay.Discard] record what they do there, each call as one change set by the actor
// [Actor] (see [Overlay.SetActor]):
//
//   - apply records each change it makes to the base as the llmfs core records an agent's
//     (operation "apply"): a file written, a file removed (a deletion, or the old name of a
//     move, with the new name as the other end), a directory made or removed. Undoing the
//     change set puts the base back as it was before the apply.
//   - discard changes nothing on the base: it records one entry per discarded change
//     (operation "discard") whose before and after are both what the base holds at the
//     path, so the history says who dropped which pending change, and when. Undoing it
//     changes nothing; the discarded content is not kept.
//
// On a SQL base the change set is one transaction with the base's changes. On a host
// directory each change is recorded as pending, made, then marked committed, so a crash
// mid-apply leaves every file old or new, and the journal settles what landed.

// Actor is the journal's name for who applied or discarded pending changes, unless
// [Overlay.SetActor] names another.
const Actor = "review"

// The journal operations of review ([store.Change.Op]).
const (
	OpApply   = "apply"
	OpDiscard = "discard"
)

// maxBlob is the largest content the journal keeps of a file (as the llmfs core keeps):
// a larger file's versions are recorded by hash and size alone.
const maxBlob = 64 << 20

// SetActor names who the base's journal says applied or discarded changes ("" is [Actor]).
func (o *Overlay) SetActor(actor string) {
	o.mu.Lock()
	o.actor = actor
	o.mu.Unlock()
}

func (o *Overlay) actorName() string {
	if o.callActor != "" {
		return o.callActor
	}
	if o.actor == "" {
		return Actor
	}
	return o.actor
}

// baseTx is how Apply and Discard change the base: through a change set of its journal
// when it keeps one (tx), or directly.
type baseTx struct {
	s  store.Store     // the base, or the change set's store over it
	tx store.JournalTx // nil: the base keeps no journal
	op string
}

// onBase runs fn with the base to change, as one change set of operation op when the base
// keeps a journal. fn may run again (a SQL base retries a transaction PostgreSQL aborted),
// so it must not change the overlay's state.
func (o *Overlay) onBase(ctx context.Context, op string, fn func(b *baseTx) error) error {
	j, ok := o.base.(store.Journaler)
	if !ok {
		return fn(&baseTx{s: o.base, op: op})
	}
	return j.Journal().Apply(ctx, o.actorName(), func(tx store.JournalTx) error {
		return fn(&baseTx{s: tx, tx: tx, op: op})
	})
}

// record records the changes plan makes, makes them by do, and settles them, as the
// llmfs core records its own ([store.Record], the one record-change-settle): plan looks at
// the base now, and is asked again when the journal finds another writer got in between.
func (b *baseTx) record(ctx context.Context, plan func() (store.Plan, error), do func() error) error {
	if b.tx == nil {
		return do()
	}
	return store.Record(ctx, b.tx, plan, func(planned []*store.Change) ([]*store.Change, error) {
		if err := do(); err != nil {
			return nil, err
		}
		return planned, nil
	})
}

// snapshot is what name holds on the base now, with its content when the journal keeps it.
func (b *baseTx) snapshot(ctx context.Context, name string) (store.Version, []byte, error) {
	if b.tx == nil {
		return store.Version{}, nil, nil
	}
	return store.Snapshot(ctx, b.s, name, maxBlob)
}

// write writes data to the base file name; other is where a moved file came from.
func (b *baseTx) write(ctx context.Context, name, other string, data []byte, opts store.WriteOptions) error {
	return b.record(ctx, func() (store.Plan, error) {
		before, old, err := b.snapshot(ctx, name)
		if err != nil {
			return store.Plan{}, err
		}
		blobs := [][]byte{old}
		if len(data) <= maxBlob {
			blobs = append(blobs, data)
		}
		c := &store.Change{Op: b.op, Path: name, Other: other, Before: before, After: store.FileVersion(data)}
		return store.Plan{Changes: []*store.Change{c}, Blobs: blobs}, nil
	}, func() error {
		_, err := b.s.WriteFile(ctx, name, bytes.NewReader(data), opts)
		return err
	})
}

// remove removes the base file or empty directory name; other is where a moved file went.
func (b *baseTx) remove(ctx context.Context, name, other string) error {
	return b.record(ctx, func() (store.Plan, error) {
		before, old, err := b.snapshot(ctx, name)
		if err != nil {
			return store.Plan{}, err
		}
		c := &store.Change{Op: b.op, Path: name, Other: other, Before: before, After: store.Version{Kind: store.Absent}}
		return store.Plan{Changes: []*store.Change{c}, Blobs: [][]byte{old}}, nil
	}, func() error { return b.s.Remove(ctx, name) })
}

// mkdir makes the base directory name.
func (b *baseTx) mkdir(ctx context.Context, name string) error {
	return b.record(ctx, func() (store.Plan, error) {
		before, _, err := b.snapshot(ctx, name)
		if err != nil {
			return store.Plan{}, err
		}
		c := &store.Change{Op: b.op, Path: name, Before: before, After: store.Version{Kind: store.Dir}}
		return store.Plan{Changes: []*store.Change{c}}, nil
	}, func() error { return b.s.Mkdir(ctx, name) })
}

// note records that the pending change at name (other: where a moved file came from) was
// resolved without changing the base: an entry whose before and after are the same.
func (b *baseTx) note(ctx context.Context, name, other string) error {
	if b.tx == nil {
		return nil
	}
	return b.record(ctx, func() (store.Plan, error) {
		v, data, err := b.snapshot(ctx, name)
		if err != nil {
			return store.Plan{}, err
		}
		c := &store.Change{Op: b.op, Path: name, Other: other, Before: v, After: v}
		return store.Plan{Changes: []*store.Change{c}, Blobs: [][]byte{data}}, nil
	}, func() error { return nil })
}
