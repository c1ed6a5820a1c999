//go:build js && wasm

package idb

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/llmfs/llmfs/store"
)

// The journal lives in the same IndexedDB database, in three object stores: journalStore
// (each change as JSON, keyed by its ID), blobsStore (content keyed by hash) and
// checkpointsStore (JSON keyed by name); the last ID given is the meta key seqKey. An
// IndexedDB transaction cannot span the Go code of an operation, so, as on a host
// directory, each change is recorded as pending first, made, then marked committed (or
// dropped); the first use of the journal after a crash or a closed tab settles the pending
// ones by what the files hold.

const (
	journalStore     = "journal"
	blobsStore       = "jblobs"
	checkpointsStore = "checkpoints"
	seqKey           = "journal:seq"
)

var _ store.Journaler = (*Store)(nil)

type idbJournal struct {
	s     *Store
	once  sync.Once
	err   error
	apply sync.Mutex
	n     store.Notifier
}

// Journal implements [store.Journaler]. The journal is the Store's own (it once lived in
// a package-level map keyed by Store, which kept every Store ever journaled).
func (s *Store) Journal() store.Journal {
	j := &s.journal
	j.once.Do(func() {
		j.s = s
		j.err = j.settle(context.Background())
	})
	return j
}

func (j *idbJournal) settle(ctx context.Context) error {
	pending, err := j.all(ctx)
	if err != nil {
		return err
	}
	for i := range pending {
		c := &pending[i]
		if c.State != store.Pending {
			continue
		}
		now, _, err := store.Snapshot(ctx, j.s, c.Path, math.MaxInt64)
		if err != nil {
			continue
		}
		c.State = store.Diverged
		switch {
		case now.Equal(c.After):
			c.State = store.Committed
		case now.Equal(c.Before):
			c.State = store.Unlanded
		}
		if err := j.put(ctx, []*store.Change{c}); err != nil {
			return err
		}
	}
	return nil
}

// all returns every change, oldest first.
func (j *idbJournal) all(ctx context.Context) ([]store.Change, error) {
	t, err := j.s.begin(ctx, "journal", "", "readonly", journalStore)
	if err != nil {
		return nil, err
	}
	id := t.request(journalStore, "getAll")
	res, err := t.wait()
	if err != nil {
		return nil, t.fail(err)
	}
	t.end()
	vals := res[id]
	out := make([]store.Change, 0, vals.Length())
	for i := range vals.Length() {
		var c store.Change
		if err := json.Unmarshal([]byte(vals.Index(i).String()), &c); err != nil {
			return nil, fmt.Errorf("idb: journal entry: %w", err)
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b store.Change) int { return int(a.ID - b.ID) })
	return out, nil
}

// put stores changes as they are.
func (j *idbJournal) put(ctx context.Context, changes []*store.Change) error {
	t, err := j.s.begin(ctx, "journal", "", "readwrite", journalStore)
	if err != nil {
		return err
	}
	for _, c := range changes {
		b, _ := json.Marshal(c)
		t.request(journalStore, "put", string(b), c.ID)
	}
	if err := t.commit(); err != nil {
		return err
	}
	j.n.Notify()
	return nil
}

func (j *idbJournal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	if j.err != nil {
		return j.err
	}
	j.apply.Lock()
	defer j.apply.Unlock()
	return fn(&idbTx{Store: j.s, j: j, actor: actor})
}

type idbTx struct {
	*Store
	j     *idbJournal
	actor string
	set   int64
}

// Add records the changes as pending, with their blobs and the new last ID, in one
// IndexedDB transaction.
func (tx *idbTx) Add(ctx context.Context, changes []*store.Change, blobs [][]byte) error {
	t, err := tx.Store.begin(ctx, "journal", "", "readwrite", metaStore, journalStore, blobsStore)
	if err != nil {
		return err
	}
	id := t.request(metaStore, "get", seqKey)
	res, err := t.wait()
	if err != nil {
		return t.fail(err)
	}
	var seq int64
	if v := res[id]; v.Type() == js.TypeString {
		seq, _ = strconv.ParseInt(v.String(), 10, 64)
	}
	for _, b := range blobs {
		buf := js.Global().Get("Uint8Array").New(len(b))
		js.CopyBytesToJS(buf, b)
		t.request(blobsStore, "put", buf, store.Hash(b))
	}
	now := time.Now()
	for _, c := range changes {
		seq++
		if tx.set == 0 {
			tx.set = seq
		}
		c.ID, c.Set, c.Time, c.Actor, c.State = seq, tx.set, now, tx.actor, store.Pending
		b, _ := json.Marshal(c)
		t.request(journalStore, "put", string(b), c.ID)
	}
	t.request(metaStore, "put", strconv.FormatInt(seq, 10), seqKey)
	return t.commit()
}

func (tx *idbTx) Settle(ctx context.Context, changes []*store.Change, landed bool) error {
	ctx = context.WithoutCancel(ctx)
	if landed {
		for _, c := range changes {
			c.State = store.Committed
		}
		return tx.j.put(ctx, changes)
	}
	t, err := tx.Store.begin(ctx, "journal", "", "readwrite", journalStore)
	if err != nil {
		return err
	}
	for _, c := range changes {
		t.request(journalStore, "delete", c.ID)
	}
	return t.commit()
}

func (j *idbJournal) Changes(ctx context.Context, f store.ChangeFilter) ([]store.Change, error) {
	if j.err != nil {
		return nil, j.err
	}
	all, err := j.all(ctx)
	if err != nil {
		return nil, err
	}
	var out []store.Change
	for i := len(all) - 1; i >= 0; i-- {
		if f.Limit > 0 && len(out) >= f.Limit {
			break
		}
		if f.Match(&all[i]) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

func (j *idbJournal) Change(ctx context.Context, id int64) (store.Change, error) {
	cs, err := j.Changes(ctx, store.ChangeFilter{After: id - 1, Upto: id})
	if err != nil {
		return store.Change{}, err
	}
	if len(cs) == 0 {
		return store.Change{}, &fs.PathError{Op: "change", Path: fmt.Sprint(id), Err: fs.ErrNotExist}
	}
	return cs[0], nil
}

func (j *idbJournal) Blob(ctx context.Context, h string) ([]byte, error) {
	t, err := j.s.begin(ctx, "blob", h, "readonly", blobsStore)
	if err != nil {
		return nil, err
	}
	id := t.request(blobsStore, "get", h)
	res, err := t.wait()
	if err != nil {
		return nil, t.fail(err)
	}
	t.end()
	v := res[id]
	if v.IsUndefined() || v.IsNull() {
		return nil, &fs.PathError{Op: "blob", Path: h, Err: fs.ErrNotExist}
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b, nil
}

func (j *idbJournal) SetCheckpoint(ctx context.Context, name string, id int64) error {
	t, err := j.s.begin(ctx, "checkpoint", name, "readwrite", checkpointsStore)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(store.Checkpoint{Name: name, ID: id, Time: time.Now()})
	t.request(checkpointsStore, "put", string(b), name)
	return t.commit()
}

func (j *idbJournal) Checkpoint(ctx context.Context, name string) (store.Checkpoint, error) {
	cps, err := j.Checkpoints(ctx)
	if err != nil {
		return store.Checkpoint{}, err
	}
	for _, c := range cps {
		if c.Name == name {
			return c, nil
		}
	}
	return store.Checkpoint{}, &fs.PathError{Op: "checkpoint", Path: name, Err: fs.ErrNotExist}
}

func (j *idbJournal) Checkpoints(ctx context.Context) ([]store.Checkpoint, error) {
	t, err := j.s.begin(ctx, "checkpoints", "", "readonly", checkpointsStore)
	if err != nil {
		return nil, err
	}
	id := t.request(checkpointsStore, "getAll")
	res, err := t.wait()
	if err != nil {
		return nil, t.fail(err)
	}
	t.end()
	vals := res[id]
	var out []store.Checkpoint
	for i := range vals.Length() {
		var c store.Checkpoint
		if err := json.Unmarshal([]byte(vals.Index(i).String()), &c); err == nil {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b store.Checkpoint) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	return out, nil
}

func (j *idbJournal) Prune(ctx context.Context, keep store.Retention) (int, error) {
	newest, err := j.Changes(ctx, store.ChangeFilter{})
	if err != nil {
		return 0, err
	}
	cut := store.PruneCut(newest, keep, time.Now())
	if cut == 0 {
		return 0, nil
	}
	var set, last int64
	for _, c := range newest {
		if c.ID == cut {
			set = c.Set
		}
	}
	used := map[string]bool{}
	var drop []int64
	for _, c := range newest {
		if c.ID <= cut || c.Set == set {
			drop = append(drop, c.ID)
			last = max(last, c.ID)
			continue
		}
		used[c.Before.Hash], used[c.After.Hash] = true, true
	}
	cps, err := j.Checkpoints(ctx)
	if err != nil {
		return 0, err
	}
	t, err := j.s.begin(ctx, "prune", "", "readwrite", journalStore, blobsStore, checkpointsStore)
	if err != nil {
		return 0, err
	}
	keys := t.request(blobsStore, "getAllKeys")
	res, err := t.wait()
	if err != nil {
		return 0, t.fail(err)
	}
	for _, id := range drop {
		t.request(journalStore, "delete", id)
	}
	for _, c := range cps {
		if c.ID < last {
			t.request(checkpointsStore, "delete", c.Name)
		}
	}
	ks := res[keys]
	for i := range ks.Length() {
		if h := ks.Index(i).String(); !used[h] {
			t.request(blobsStore, "delete", h)
		}
	}
	return len(drop), t.commit()
}

func (j *idbJournal) Last(ctx context.Context) (int64, error) {
	t, err := j.s.begin(ctx, "journal", "", "readonly", journalStore)
	if err != nil {
		return 0, err
	}
	id := t.request(journalStore, "getAllKeys")
	res, err := t.wait()
	if err != nil {
		return 0, t.fail(err)
	}
	t.end()
	ks := res[id]
	if ks.Length() == 0 {
		return 0, nil
	}
	return int64(ks.Index(ks.Length() - 1).Float()), nil
}

func (j *idbJournal) Wait(ctx context.Context, after int64) error {
	return store.WaitFor(ctx, after, j.Last, &j.n)
}
