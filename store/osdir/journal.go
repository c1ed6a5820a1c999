//go:build !js && !wasip1

package osdir

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// The journal of a host directory is an embedded SQLite database outside the directory,
// beside its metadata: $LLMFS_CACHE_DIR/journal/<hash of the real path>.db (or under the
// user's cache directory, see [Store.MetaPath]). Nothing is created inside the root.
//
// A host directory has no transactions, so each change is recorded first, as pending
// (with its before and after versions and the content blobs), then made, then marked
// committed, or dropped if it failed. After a crash, opening the journal settles every
// pending change by looking at the file: holding the after version, it landed
// ([store.Committed]); holding the before version, it never did ([store.Unlanded]);
// holding anything else, it is [store.Diverged], and undo never touches it. A change
// another live process is still making is settled by that process again.

var _ store.Journaler = (*Store)(nil)

// journalState is what a Store keeps of its journal; the zero value opens it on first use.
type journalState struct {
	once sync.Once
	j    *hostJournal
	err  error
}

// JournalPath returns the host path of the SQLite database that holds the store's journal.
func (s *Store) JournalPath() (string, error) {
	meta, err := s.MetaPath()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(s.dir))
	return filepath.Join(filepath.Dir(filepath.Dir(meta)), "journal", hex.EncodeToString(sum[:12])+".db"), nil
}

// Journal implements [store.Journaler]. The database is opened, and pending changes left by
// a crash settled, on first use; if that fails every method of the journal fails with why.
func (s *Store) Journal() store.Journal {
	js := &s.journal
	js.once.Do(func() { js.j, js.err = s.openJournal(context.Background()) })
	if js.err != nil {
		return brokenJournal{js.err}
	}
	return js.j
}

type hostJournal struct {
	s    *Store
	path string // of the database
	db   *sqlstore.DB
	log  *sqlstore.Log
}

func (s *Store) openJournal(ctx context.Context) (*hostJournal, error) {
	p, err := s.JournalPath()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	db, err := sqlstore.Connect(ctx, "sqlite:"+p)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", p, err)
	}
	log, err := db.Log(ctx, "host")
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("journal %s: %w", p, err)
	}
	j := &hostJournal{s: s, path: p, db: db, log: log}
	if err := j.settle(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("journal %s: %w", p, err)
	}
	return j, nil
}

// closeJournal closes the journal's database if it was opened.
func (s *Store) closeJournal() error {
	if s.journal.j != nil {
		return s.journal.j.db.Close()
	}
	return nil
}

// settle decides the fate of the changes a crash left pending.
func (j *hostJournal) settle(ctx context.Context) error {
	pending, err := j.log.Changes(ctx, store.ChangeFilter{States: []store.State{store.Pending}})
	if err != nil {
		return err
	}
	for i := range pending {
		c := &pending[i]
		now, _, err := store.Snapshot(ctx, j.s, c.Path, math.MaxInt64)
		if err != nil {
			continue // unreadable now: leave it pending, to settle later
		}
		state := store.Diverged
		switch {
		case now.Equal(c.After):
			state = store.Committed
		case now.Equal(c.Before):
			state = store.Unlanded
		}
		if err := j.log.SetState(ctx, []*store.Change{c}, state); err != nil {
			return err
		}
	}
	return nil
}

func (j *hostJournal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	// One change set at a time per directory in this process, whichever Store it came
	// through, so the before versions it records stay true. Another process writing the
	// same directory is not held back: its racing write may be recorded from a stale
	// before version, which undo's compare-and-swap still never clobbers.
	defer lockPath(j.path)()
	return fn(&hostTx{Store: j.s, j: j, actor: actor})
}

func (j *hostJournal) Changes(ctx context.Context, f store.ChangeFilter) ([]store.Change, error) {
	return j.log.Changes(ctx, f)
}
func (j *hostJournal) Change(ctx context.Context, id int64) (store.Change, error) {
	return j.log.Change(ctx, id)
}
func (j *hostJournal) Blob(ctx context.Context, h string) ([]byte, error) { return j.log.Blob(ctx, h) }
func (j *hostJournal) SetCheckpoint(ctx context.Context, name string, id int64) error {
	return j.log.SetCheckpoint(ctx, name, id)
}
func (j *hostJournal) Checkpoint(ctx context.Context, name string) (store.Checkpoint, error) {
	return j.log.Checkpoint(ctx, name)
}
func (j *hostJournal) Checkpoints(ctx context.Context) ([]store.Checkpoint, error) {
	return j.log.Checkpoints(ctx)
}
func (j *hostJournal) Prune(ctx context.Context, keep store.Retention) (int, error) {
	return j.log.Prune(ctx, keep)
}
func (j *hostJournal) Last(ctx context.Context) (int64, error)     { return j.log.Last(ctx) }
func (j *hostJournal) Wait(ctx context.Context, after int64) error { return j.log.Wait(ctx, after) }

type hostTx struct {
	*Store
	j     *hostJournal
	actor string
	set   int64
}

// Add records the changes as pending, in a committed transaction, before they are made.
func (tx *hostTx) Add(ctx context.Context, changes []*store.Change, blobs [][]byte) error {
	set, err := tx.j.log.Add(ctx, tx.actor, tx.set, changes, blobs, store.Pending)
	if err == nil {
		tx.set = set
	}
	return err
}

func (tx *hostTx) Settle(ctx context.Context, changes []*store.Change, landed bool) error {
	ctx = context.WithoutCancel(ctx)
	if landed {
		return tx.j.log.SetState(ctx, changes, store.Committed)
	}
	return tx.j.log.Drop(ctx, changes)
}

// brokenJournal is a journal that could not be opened.
type brokenJournal struct{ err error }

func (b brokenJournal) Apply(context.Context, string, func(store.JournalTx) error) error {
	return b.err
}
func (b brokenJournal) Changes(context.Context, store.ChangeFilter) ([]store.Change, error) {
	return nil, b.err
}
func (b brokenJournal) Change(context.Context, int64) (store.Change, error) {
	return store.Change{}, b.err
}
func (b brokenJournal) Blob(context.Context, string) ([]byte, error)       { return nil, b.err }
func (b brokenJournal) SetCheckpoint(context.Context, string, int64) error { return b.err }
func (b brokenJournal) Checkpoint(context.Context, string) (store.Checkpoint, error) {
	return store.Checkpoint{}, b.err
}
func (b brokenJournal) Checkpoints(context.Context) ([]store.Checkpoint, error) { return nil, b.err }
func (b brokenJournal) Prune(context.Context, store.Retention) (int, error)     { return 0, b.err }
func (b brokenJournal) Last(context.Context) (int64, error)                     { return 0, b.err }
func (b brokenJournal) Wait(context.Context, int64) error                       { return b.err }
