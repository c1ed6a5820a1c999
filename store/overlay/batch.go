package overlay

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"

	"github.com/llmfs/llmfs/store"
)

// Applying many files at once. Recording each change in the base's journal as it is made
// costs a journal transaction before and after each file (on a host directory: two SQLite
// transactions per file), which made applying 1,000 files several times slower than
// writing them. So the base part of an apply is planned first, every step's conflict
// checked and its changes listed, then all of them recorded in one call, made, and
// settled in one more. A crash midway leaves the journal with the changes still pending,
// which the journal settles by looking at each file when next opened; every file is old
// or new, and applying again resumes.

// errBatchStale is a batch's plan found stale by the journal: its steps go one at a time.
var errBatchStale = errors.New("overlay: the base changed since the batch was planned")

// baseOp is one change a step makes to the base.
type baseOp struct {
	remove bool
	name   string
	other  string
	data   []byte
	step   *step // of a large file: streamed from the upper store, data is nil
	opts   store.WriteOptions
	change *store.Change
}

// applyBatch makes the base part of steps, and makes the directories dirs, through b.
// It sets each step's err. It returns an error only when nothing could be recorded.
func (o *Overlay) applyBatch(ctx context.Context, b *baseTx, steps []*step, dirs []string) error {
	if b.tx == nil {
		return o.applyEach(ctx, b, steps, dirs)
	}
	var changes []*store.Change
	var blobs [][]byte
	made := map[string]bool{}
	var mkdirs []*store.Change
	mkdir := func(dir string) error {
		var missing []string
		for d := dir; d != "." && !made[d]; d = path.Dir(d) {
			fi, err := b.s.Stat(ctx, d)
			if err == nil {
				if !fi.IsDir() {
					return pathErr("apply", d, store.ErrNotDir)
				}
				break
			}
			missing = append(missing, d)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			d := missing[i]
			made[d] = true
			mkdirs = append(mkdirs, &store.Change{Op: b.op, Path: d, Before: store.Version{Kind: store.Absent}, After: store.Version{Kind: store.Dir}})
		}
		return nil
	}
	plans := make([][]*baseOp, len(steps))
	for i, s := range steps {
		s.pruned, s.err = nil, nil
		s.snap = takeSnap(ctx, b, s.p.Path)
		ops, err := o.planStep(ctx, b, s)
		if err == nil {
			for _, op := range ops {
				if !op.remove {
					err = errors.Join(err, mkdir(path.Dir(op.name)))
				}
			}
		}
		if err != nil {
			s.err = err
			continue
		}
		for _, op := range ops {
			before, old, err := s.snap.of(ctx, b, op.name)
			if err != nil {
				s.err = err
				break
			}
			op.change = &store.Change{Op: b.op, Path: op.name, Other: op.other, Before: before, After: store.Version{Kind: store.Absent}}
			blobs = append(blobs, old)
			if !op.remove && op.step != nil {
				op.change.After = store.Version{Kind: store.File, Hash: s.p.large.newHash, Size: s.p.large.newSize}
			} else if !op.remove {
				op.change.After = store.FileVersion(op.data)
				if len(op.data) <= maxBlob {
					blobs = append(blobs, op.data)
				}
			}
		}
		if s.err == nil {
			plans[i] = ops
		}
		s.snap = nil
	}
	for _, d := range dirs {
		if err := mkdir(d); err != nil {
			return err
		}
	}
	changes = append(changes, mkdirs...)
	for _, ops := range plans {
		for _, op := range ops {
			changes = append(changes, op.change)
		}
	}
	if len(changes) == 0 {
		return nil
	}
	planned := false
	err := store.Record(ctx, b.tx, func() (store.Plan, error) {
		if planned {
			// Another writer changed the base since the plan (PostgreSQL): the batch is
			// not planned again; its steps go one at a time, each checked again.
			return store.Plan{}, errBatchStale
		}
		planned = true
		return store.Plan{Changes: changes, Blobs: blobs}, nil
	}, func([]*store.Change) ([]*store.Change, error) {
		landed, _ := o.landBatch(ctx, b, steps, plans, mkdirs)
		return landed, nil
	})
	if errors.Is(err, errBatchStale) {
		return o.applyEach(ctx, b, steps, dirs)
	}
	if err != nil {
		return err
	}
	o.pruneApplied(ctx, b, steps)
	return nil
}

// landBatch makes the base changes of a batch whose change set the journal took: the
// directories first, then each step's files. A step that failed in the plan lands nothing;
// a step whose change fails keeps its error. It returns the changes that landed and failed,
// for the change set to settle. Consecutive writes go to the base together when it can
// write many files at once ([store.FilesWriter]: a host directory syncs them together).
func (o *Overlay) landBatch(ctx context.Context, b *baseTx, steps []*step, plans [][]*baseOp, mkdirs []*store.Change) (landed, failed []*store.Change) {
	for _, c := range mkdirs {
		if err := b.s.Mkdir(ctx, c.Path); err != nil && !errors.Is(err, fs.ErrExist) {
			failed = append(failed, c)
			continue
		}
		landed = append(landed, c)
	}
	fw, _ := b.s.(store.FilesWriter)
	var queued []queuedWrite
	flush := func() {
		if len(queued) == 0 {
			return
		}
		files := make([]store.FileWrite, len(queued))
		for i, q := range queued {
			files[i] = store.FileWrite{Name: q.op.name, Data: q.op.data, Opts: q.op.opts}
		}
		for i, err := range fw.WriteFiles(ctx, files) {
			q := queued[i]
			if err = o.wrote(ctx, b, q.s, err); err != nil {
				q.s.err = err
				failed = append(failed, q.op.change)
				continue
			}
			landed = append(landed, q.op.change)
		}
		queued = queued[:0]
	}
	for i, ops := range plans {
		s := steps[i]
		for _, op := range ops {
			if fw != nil && !op.remove && op.step == nil && s.err == nil {
				queued = append(queued, queuedWrite{s, op})
				continue
			}
			flush()
			if s.err != nil {
				failed = append(failed, op.change)
				continue
			}
			var err error
			if op.remove {
				if err = b.s.Remove(ctx, op.name); errors.Is(err, fs.ErrNotExist) {
					err = nil
				}
			} else if op.step != nil {
				err = o.streamLarge(ctx, b.s, s, op.opts)
			} else {
				_, err = b.s.WriteFile(ctx, op.name, bytes.NewReader(op.data), op.opts)
				err = o.wrote(ctx, b, s, err)
			}
			if err != nil {
				s.err = err
				failed = append(failed, op.change)
				continue
			}
			landed = append(landed, op.change)
		}
	}
	flush()
	return landed, failed
}

// A queuedWrite is a write of landBatch waiting to go to the base with the next ones.
type queuedWrite struct {
	s  *step
	op *baseOp
}

// wrote is the error of a step's write: a write the base refused because the file moved
// since the plan is checked again, for the error that says how.
func (o *Overlay) wrote(ctx context.Context, b *baseTx, s *step, err error) error {
	if errors.Is(err, store.ErrChanged) {
		s.nowOK = false // the base moved since the plan
		if _, cerr := o.checkStep(ctx, b.s, s); cerr != nil {
			err = cerr
		}
	}
	return err
}

// pruneApplied removes the base directories that the applied deletions and moves emptied.
func (o *Overlay) pruneApplied(ctx context.Context, b *baseTx, steps []*step) {
	for _, s := range steps {
		if s.err != nil {
			continue
		}
		switch s.p.Kind {
		case Deleted:
			s.pruned = o.pruneBase(ctx, b, path.Dir(s.p.Path))
		case Moved:
			s.pruned = o.pruneBase(ctx, b, path.Dir(s.p.From))
		}
	}
}

// applyEach makes the base part of each step by itself, each change recorded as it is made.
func (o *Overlay) applyEach(ctx context.Context, b *baseTx, steps []*step, dirs []string) error {
	for _, s := range steps {
		s.pruned, s.snap = nil, nil
		s.err = o.applyBase(ctx, b, s)
	}
	for _, d := range dirs {
		if err := o.baseDirs(ctx, b, d); err != nil {
			return err
		}
	}
	return nil
}

// planStep checks a step against the base, as [Overlay.applyBase] does, and lists the
// changes it makes there, in order.
func (o *Overlay) planStep(ctx context.Context, b *baseTx, s *step) ([]*baseOp, error) {
	p := s.p
	if err := o.merge(ctx, b.s, s); err != nil {
		return nil, err
	}
	switch p.Kind {
	case Deleted:
		already, err := o.check(ctx, b.s, p.Path, "", p)
		if err != nil || already {
			return nil, err
		}
		return []*baseOp{{remove: true, name: p.Path}}, nil
	case Moved:
		if _, err := o.check(ctx, b.s, p.Path, s.newHash(), p); err != nil {
			return nil, err
		}
		if _, err := o.check(ctx, b.s, p.From, "", p); err != nil {
			return nil, err
		}
	}
	already, err := o.checkStep(ctx, b.s, s)
	if err != nil {
		return nil, err
	}
	var ops []*baseOp
	if !already {
		op := &baseOp{name: p.Path, other: p.From, data: s.data, opts: o.writeOpts(s)}
		if p.large != nil {
			op.step = s
		}
		ops = append(ops, op)
	}
	if p.Kind == Moved {
		if _, err := store.Lstat(ctx, b.s, p.From); err == nil {
			ops = append(ops, &baseOp{remove: true, name: p.From, other: p.Path})
		}
	}
	return ops, nil
}

// A snap is the journal's snapshot of a step's path, taken when its batch is planned: the
// plan needs both the file's hash (the merge and the conflict check) and its snapshot (the
// change set's before), and read the file once for each (issue 40.4: three reads of each
// file in an apply of 1,000, the write's own check included).
type snap struct {
	name string
	v    store.Version
	data []byte
}

// takeSnap snapshots name on the base for a batch's plan; nil if the snapshot fails, and
// the plan then reads as before.
func takeSnap(ctx context.Context, b *baseTx, name string) *snap {
	if b.tx == nil {
		return nil
	}
	v, data, err := b.snapshot(ctx, name)
	if err != nil {
		return nil
	}
	return &snap{name: name, v: v, data: data}
}

// hash is what baseHash reads at the snapshot's path, when the snapshot says: not for a
// symbolic link, which baseHash follows.
func (sn *snap) hash() (string, bool) {
	if sn == nil {
		return "", false
	}
	switch sn.v.Kind {
	case store.File:
		return sn.v.Hash, true
	case store.Dir:
		return "dir", true
	case store.Absent:
		return "", true
	}
	return "", false
}

// of is the snapshot of name: this one's if it is of name, else taken now.
func (sn *snap) of(ctx context.Context, b *baseTx, name string) (store.Version, []byte, error) {
	if sn != nil && sn.name == name {
		return sn.v, sn.data, nil
	}
	return b.snapshot(ctx, name)
}
