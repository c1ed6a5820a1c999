package llmfs

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"sync/atomic"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Journaling. When the store keeps a journal ([store.Journaler]) every operation that
// changes files runs as one change set: the operation's body runs on a recorder, a Store
// over the change set's transaction that records each change it passes on (with the
// content before and after) just before making it. Reads are passed through unrecorded.
// The hooks in the operation files are one call to journaled at the top of each.

// Actors of changes the core itself makes.
const (
	ActorSystem = "system" // files the system writes (AGENT.md)
	ActorAPI    = "api"    // a Go caller that set no actor
)

// Operations recorded in the journal ([store.Change.Op]).
const (
	ChangeWrite  = "write"
	ChangeAppend = "append"
	ChangeCreate = "create"
	ChangeEdit   = "edit"
	ChangePatch  = "patch"
	ChangeDelete = "delete"
	ChangeMove   = "move"
	ChangeCopy   = "copy"
	ChangeMkdir  = "mkdir"
	// ChangeGenerate is a system file (AGENT.md) made or refreshed by llmfs (actor
	// [ActorSystem]), or restored to its default.
	ChangeGenerate = "generate"
	ChangeUndo     = "undo"
	ChangeRestore  = "restore"

	// ChangeSystem is the operation older journals recorded for what ChangeGenerate
	// records now.
	//
	// Deprecated: read it from old journals; llmfs records [ChangeGenerate].
	ChangeSystem = "system"
)

// DefaultRetention is what a journal keeps unless [Options.Retention] says otherwise: 30
// days, and 1 GiB of distinct content per workspace, whichever bound is reached first.
var DefaultRetention = store.Retention{MaxAge: 30 * 24 * time.Hour, MaxBytes: 1 << 30}

// pruneEvery is how many change sets a process journals between two prunings.
const pruneEvery = 256

var changeSets atomic.Int64

// retention returns the bounds in force.
func (w *Workspace) retention() store.Retention {
	if w.keep == (store.Retention{}) {
		return DefaultRetention
	}
	r := w.keep
	if r.MaxAge < 0 {
		r.MaxAge = 0
	}
	if r.MaxBytes < 0 {
		r.MaxBytes = 0
	}
	return r
}

// Prune applies the retention bounds to the journal now (it also runs by itself every
// few hundred change sets) and returns how many changes it forgot.
func (h *History) Prune(ctx context.Context) (int, error) {
	w := h.w
	j, err := w.history()
	if err != nil {
		return 0, err
	}
	n, err := j.Prune(ctx, w.retention())
	if err != nil {
		return 0, storeError(w.root, err)
	}
	return n, nil
}

// DefaultUndoMaxFileBytes is the largest content the journal keeps of a file unless
// [Options.UndoMaxFileBytes] says otherwise; a larger file's versions are recorded by hash
// and size alone, and a change to it cannot be undone.
const DefaultUndoMaxFileBytes = 64 << 20

// actorName returns the name w's changes are journaled under.
func (w *Workspace) actorName() string {
	if w.actor == "" {
		return ActorAPI
	}
	return w.actor
}

// journal returns the journal of w's store, or nil when it keeps none or journaling is off.
func (w *Workspace) journal() store.Journal {
	if w.jr == nil || w.inJournal {
		return nil
	}
	return w.jr.Journal()
}

// hasJournal reports whether w records its changes in a journal.
func (w *Workspace) hasJournal() bool { return w.jr != nil }

// journaled runs fn as one change set of operation op: fn gets a view of w whose store
// records every change. Without a journal, or inside a change set already, fn gets w.
func journaled[T any](ctx context.Context, w *Workspace, op string, fn func(w *Workspace) (T, error)) (T, error) {
	j := w.journal()
	if j == nil {
		return fn(w)
	}
	var res T
	var ferr error
	err := j.Apply(ctx, w.actorName(), func(tx store.JournalTx) error {
		v := *w
		v.store = &recorder{tx: tx, op: op, max: w.undoMax}
		v.inJournal = true
		res, ferr = fn(&v)
		return ferr
	})
	if ferr != nil {
		return res, ferr
	}
	if err != nil {
		var zero T
		return zero, storeError(w.root, err)
	}
	if changeSets.Add(1)%pruneEvery == 0 {
		j.Prune(context.WithoutCancel(ctx), w.retention()) // best effort: the change landed
	}
	return res, nil
}

// Record runs fn as one change set of operation op by actor: the changes fn makes through
// the store it is given are journaled (when w's store keeps a journal). It is for code
// that works on a workspace's store below the file operations, such as package sysfiles.
func (h *History) Record(ctx context.Context, actor, op string, fn func(s store.Store) error) error {
	w := h.w
	v := *w
	v.actor = actor
	_, err := journaled(ctx, &v, op, func(v *Workspace) (struct{}, error) { return struct{}{}, fn(v.store) })
	return err
}

// recorder is the store a change set's operations see: the change set's transaction, with
// each change recorded before it is made and settled after.
type recorder struct {
	tx  store.JournalTx
	op  string
	max int64 // the largest content kept ([Options.UndoMaxFileBytes])
}

var (
	_ store.Store              = (*recorder)(nil)
	_ store.Copier             = (*recorder)(nil)
	_ store.Lstater            = (*recorder)(nil)
	_ store.Resolver           = (*recorder)(nil)
	_ store.ConditionalRemover = (*recorder)(nil)
	_ store.ChainMaker         = (*recorder)(nil)
)

func (r *recorder) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	return r.tx.Stat(ctx, name)
}

func (r *recorder) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	return store.Lstat(ctx, r.tx, name)
}

func (r *recorder) RealName(ctx context.Context, name string) (string, error) {
	return store.RealName(ctx, r.tx, name)
}

func (r *recorder) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return r.tx.ReadDir(ctx, name)
}

func (r *recorder) Open(ctx context.Context, name string) (fs.File, error) {
	return r.tx.Open(ctx, name)
}

// plan is what a recorder is about to do: the changes and the blobs they refer to.
type plan struct {
	changes []*store.Change
	blobs   [][]byte
}

// do plans the changes (looking at the paths now), records them, runs the change, and
// settles them by its outcome ([store.Record]).
func (r *recorder) do(ctx context.Context, prepare func() (plan, error), change func() error) error {
	return r.doPart(ctx, prepare, func(n int) (int, error) {
		if err := change(); err != nil {
			return 0, err
		}
		return n, nil
	})
}

// doPart is do for a change that may land in part: given the number of changes planned,
// it returns how many of the first landed.
func (r *recorder) doPart(ctx context.Context, prepare func() (plan, error), change func(n int) (int, error)) error {
	return store.Record(ctx, r.tx, func() (store.Plan, error) {
		p, err := prepare()
		return store.Plan{Changes: p.changes, Blobs: p.blobs}, err
	}, func(planned []*store.Change) ([]*store.Change, error) {
		n, err := change(len(planned))
		return planned[:n], err
	})
}

func (r *recorder) WriteFile(ctx context.Context, name string, src io.Reader, opts store.WriteOptions) (int64, error) {
	c, err := r.content(src)
	if err != nil {
		return 0, err
	}
	var n int64
	err = r.do(ctx, func() (plan, error) {
		return r.planWrite(ctx, name, opts.Mode, c)
	}, func() error {
		var err error
		n, err = r.tx.WriteFile(ctx, name, c.reader(), opts)
		return err
	})
	return n, err
}

// writeContent is the content of a write, hashed once however often the write is planned.
type writeContent struct {
	data   []byte // the whole content; nil for one larger than the journal keeps
	hash   string
	size   int64
	reader func() io.Reader // reads the content from its start
}

// content reads a write's content: whole when the journal keeps it, and otherwise (a
// section larger than the journal keeps) hashed as it is read, then read again as it is
// written, never held whole in memory.
func (r *recorder) content(src io.Reader) (writeContent, error) {
	if sr, ok := src.(*io.SectionReader); ok && sr.Size() > r.max {
		size := sr.Size()
		h, err := store.HashReader(io.NewSectionReader(sr, 0, size))
		if err != nil {
			return writeContent{}, err
		}
		return writeContent{hash: h, size: size, reader: func() io.Reader { return io.NewSectionReader(sr, 0, size) }}, nil
	}
	data, err := readContent(src)
	if err != nil {
		return writeContent{}, err
	}
	return writeContent{data: data, hash: store.Hash(data), size: int64(len(data)),
		reader: func() io.Reader { return bytes.NewReader(data) }}, nil
}

// planWrite plans the write of c to name in mode: the snapshot of name before, the version
// after, and the contents kept (the after version's when the journal keeps it).
func (r *recorder) planWrite(ctx context.Context, name string, mode store.WriteMode, c writeContent) (plan, error) {
	before, old, err := store.Snapshot(ctx, r.tx, name, r.max)
	if err != nil {
		return plan{}, err
	}
	after := store.Version{Kind: store.File, Hash: c.hash, Size: c.size}
	var content []byte // the after version's, when kept
	switch {
	case mode == store.Append && before.Kind == store.File && old != nil && c.data != nil:
		content = append(bytes.Clone(old), c.data...)
		after = store.FileVersion(content)
	case mode == store.Append && before.Kind == store.File:
		if after, err = r.appendedVersion(ctx, name, before, c.reader(), c.size); err != nil {
			return plan{}, err
		}
	case int64(len(c.data)) <= r.max:
		content = c.data
	}
	ch := &store.Change{Op: r.op, Path: name, Before: before, After: after}
	if c.data != nil {
		ch.Lines = lineCounts(before, after, old, content)
	}
	return plan{[]*store.Change{ch}, [][]byte{old, content}}, nil
}

// readContent reads all of src. A source that knows its length (the workspace writes from
// a section of a strings.Reader) is read into one buffer of that length: io.ReadAll grows
// its buffer step by step, which for a write of 15 MB left some 30 MB more garbage behind.
func readContent(src io.Reader) ([]byte, error) {
	var size int64 = -1
	switch l := src.(type) {
	case interface{ Len() int }:
		size = int64(l.Len())
	case interface{ Size() int64 }:
		size = l.Size()
	}
	if size >= 0 {
		b := make([]byte, size)
		if _, err := io.ReadFull(src, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	return io.ReadAll(src)
}

// appendedVersion is the version of a large file after the size bytes of data are
// appended to it.
func (r *recorder) appendedVersion(ctx context.Context, name string, before store.Version, data io.Reader, size int64) (store.Version, error) {
	f, err := r.tx.Open(ctx, name)
	if err != nil {
		return store.Version{}, err
	}
	defer f.Close()
	h, err := store.HashReader(io.MultiReader(f, data))
	if err != nil {
		return store.Version{}, err
	}
	return store.Version{Kind: store.File, Hash: h, Size: before.Size + size}, nil
}

func (r *recorder) Mkdir(ctx context.Context, name string) error {
	_, err := r.MkdirChain(ctx, []string{name})
	return err
}

// MkdirChain implements [store.ChainMaker]: one record for the whole chain. Only its
// first directory is looked at: the others lie inside it, so they are absent if it is.
func (r *recorder) MkdirChain(ctx context.Context, dirs []string) (int, error) {
	op := ChangeMkdir // also the parents a write or a move makes
	switch r.op {
	case ChangeUndo, ChangeRestore, ChangeGenerate, ChangeSystem:
		op = r.op
	}
	var made int
	err := r.doPart(ctx, func() (plan, error) {
		before, _, err := store.Snapshot(ctx, r.tx, dirs[0], 0)
		if err != nil {
			return plan{}, err
		}
		changes := make([]*store.Change, len(dirs))
		for i, d := range dirs {
			dir := store.Version{Kind: store.Dir}
			changes[i] = &store.Change{Op: op, Path: d, Before: before, After: dir, Lines: lineCounts(before, dir, nil, nil)}
			before = store.Version{Kind: store.Absent}
		}
		return plan{changes: changes}, nil
	}, func(int) (int, error) {
		var err error
		made, err = store.MkdirChain(ctx, r.tx, dirs)
		return made, err
	})
	return made, err
}

func (r *recorder) Remove(ctx context.Context, name string) error {
	return r.do(ctx, func() (plan, error) {
		before, old, err := store.Snapshot(ctx, r.tx, name, r.max)
		if err != nil {
			return plan{}, err
		}
		return plan{[]*store.Change{removal(r.op, name, before, old)}, [][]byte{old}}, nil
	}, func() error { return r.tx.Remove(ctx, name) })
}

// RemoveIf records the removal as Remove does, then makes it only if name still holds the
// content with hash.
func (r *recorder) RemoveIf(ctx context.Context, name, hash string) error {
	return r.do(ctx, func() (plan, error) {
		before, old, err := store.Snapshot(ctx, r.tx, name, r.max)
		if err != nil {
			return plan{}, err
		}
		return plan{[]*store.Change{removal(r.op, name, before, old)}, [][]byte{old}}, nil
	}, func() error { return store.RemoveIf(ctx, r.tx, name, hash) })
}

func (r *recorder) Rename(ctx context.Context, oldname, newname string) error {
	return r.do(ctx, func() (plan, error) {
		before, old, err := store.Snapshot(ctx, r.tx, oldname, r.max)
		if err != nil {
			return plan{}, err
		}
		target, _, err := store.Snapshot(ctx, r.tx, newname, 0)
		if err != nil {
			return plan{}, err
		}
		src := removal(r.op, oldname, before, old)
		src.Other = newname
		dst := &store.Change{Op: r.op, Path: newname, Other: oldname, Before: target, After: before, Lines: unloaded(target, before, old)}
		return plan{[]*store.Change{src, dst}, [][]byte{old}}, nil
	}, func() error { return r.tx.Rename(ctx, oldname, newname) })
}

func (r *recorder) Copy(ctx context.Context, src, dst string) error {
	return r.do(ctx, func() (plan, error) {
		v, data, err := store.Snapshot(ctx, r.tx, src, r.max)
		if err != nil {
			return plan{}, err
		}
		target, _, err := store.Snapshot(ctx, r.tx, dst, 0)
		if err != nil {
			return plan{}, err
		}
		c := &store.Change{Op: r.op, Path: dst, Other: src, Before: target, After: v, Lines: unloaded(target, v, data)}
		return plan{[]*store.Change{c}, [][]byte{data}}, nil
	}, func() error { return store.Copy(ctx, r.tx, src, dst) })
}

// removal is the change of op that leaves name absent, which held before (content old).
func removal(op, name string, before store.Version, old []byte) *store.Change {
	absent := store.Version{Kind: store.Absent}
	return &store.Change{Op: op, Path: name, Before: before, After: absent, Lines: lineCounts(before, absent, old, nil)}
}

// writeChange is the journal's name of a write in mode.
func writeChange(mode WriteMode) string {
	switch mode {
	case AppendTo:
		return ChangeAppend
	case Create:
		return ChangeCreate
	}
	return ChangeWrite
}
