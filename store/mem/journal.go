package mem

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"time"

	"github.com/llmfs/llmfs/store"
)

var _ store.Journaler = (*Store)(nil)

// journal is a Store's journal, in memory. Change sets are applied one at a time, so the
// changes of a set have consecutive IDs and a set is seen whole once Apply returns.
type journal struct {
	s     *Store
	apply sync.Mutex // held for a whole change set
	mu    sync.Mutex // guards what follows
	next  int64
	list  []store.Change // oldest first
	blobs map[string][]byte
	cps   map[string]store.Checkpoint
	n     store.Notifier
}

// Journal implements [store.Journaler].
func (s *Store) Journal() store.Journal {
	s.jonce.Do(func() {
		s.j = &journal{s: s, blobs: map[string][]byte{}, cps: map[string]store.Checkpoint{}}
	})
	return s.j
}

type memTx struct {
	*Store
	j     *journal
	actor string
	set   int64
}

func (t *memTx) Add(ctx context.Context, changes []*store.Change, blobs [][]byte) error {
	j := t.j
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, b := range blobs {
		h := store.Hash(b)
		if _, ok := j.blobs[h]; !ok {
			j.blobs[h] = slices.Clone(b)
		}
	}
	now := time.Now()
	for _, c := range changes {
		j.next++
		if t.set == 0 {
			t.set = j.next
		}
		c.ID, c.Set, c.Time, c.Actor, c.State = j.next, t.set, now, t.actor, store.Pending
	}
	return nil
}

func (t *memTx) Settle(ctx context.Context, changes []*store.Change, landed bool) error {
	if !landed {
		return nil
	}
	j := t.j
	j.mu.Lock()
	for _, c := range changes {
		c.State = store.Committed
		j.list = append(j.list, *c)
	}
	j.mu.Unlock()
	j.n.Notify()
	return nil
}

// Apply implements [store.Journal]. A change made through tx that fails leaves no entry;
// one that landed keeps its entry even when fn fails later: memory has no rollback.
func (j *journal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	j.apply.Lock()
	defer j.apply.Unlock()
	return fn(&memTx{Store: j.s, j: j, actor: actor})
}

func (j *journal) Changes(ctx context.Context, f store.ChangeFilter) ([]store.Change, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []store.Change
	for i := len(j.list) - 1; i >= 0; i-- {
		if f.Limit > 0 && len(out) >= f.Limit {
			break
		}
		if c := j.list[i]; f.Match(&c) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (j *journal) Change(ctx context.Context, id int64) (store.Change, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	i, ok := slices.BinarySearchFunc(j.list, id, func(c store.Change, id int64) int { return int(c.ID - id) })
	if !ok {
		return store.Change{}, &fs.PathError{Op: "change", Path: fmt.Sprint(id), Err: fs.ErrNotExist}
	}
	return j.list[i], nil
}

func (j *journal) Blob(ctx context.Context, h string) ([]byte, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	b, ok := j.blobs[h]
	if !ok {
		return nil, &fs.PathError{Op: "blob", Path: h, Err: fs.ErrNotExist}
	}
	return slices.Clone(b), nil
}

func (j *journal) SetCheckpoint(ctx context.Context, name string, id int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.cps[name] = store.Checkpoint{Name: name, ID: id, Time: time.Now()}
	return nil
}

func (j *journal) Checkpoint(ctx context.Context, name string) (store.Checkpoint, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	c, ok := j.cps[name]
	if !ok {
		return c, &fs.PathError{Op: "checkpoint", Path: name, Err: fs.ErrNotExist}
	}
	return c, nil
}

func (j *journal) Checkpoints(ctx context.Context) ([]store.Checkpoint, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []store.Checkpoint
	for _, c := range j.cps {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b store.Checkpoint) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	return out, nil
}

func (j *journal) Last(ctx context.Context) (int64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.list) == 0 {
		return 0, nil
	}
	return j.list[len(j.list)-1].ID, nil
}

func (j *journal) Wait(ctx context.Context, after int64) error {
	return store.WaitFor(ctx, after, j.Last, &j.n)
}

// Prune implements [store.Journal].
func (j *journal) Prune(ctx context.Context, keep store.Retention) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	newest := slices.Clone(j.list)
	slices.Reverse(newest)
	cut := store.PruneCut(newest, keep, time.Now())
	if cut == 0 {
		return 0, nil
	}
	// Whole change sets go: the cut's set and everything older.
	i, _ := slices.BinarySearchFunc(j.list, cut, func(c store.Change, id int64) int { return int(c.ID - id) })
	set := j.list[i].Set
	n := 0
	for n < len(j.list) && (j.list[n].ID <= cut || j.list[n].Set == set) {
		n++
	}
	last := j.list[n-1].ID
	j.list = slices.Delete(j.list, 0, n)
	for name, cp := range j.cps {
		if cp.ID < last {
			delete(j.cps, name)
		}
	}
	used := map[string]bool{}
	for _, c := range j.list {
		used[c.Before.Hash], used[c.After.Hash] = true, true
	}
	for h := range j.blobs {
		if !used[h] {
			delete(j.blobs, h)
		}
	}
	return n, nil
}
