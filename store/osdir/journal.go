//go:build !js && !wasip1

package osdir

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/llmfs/llmfs/store"
)

// The journal of a host directory is a database outside the directory ([store.JournalDB],
// an embedded SQLite database registered by package store/sql/hostjournal),
// beside its metadata: $LLMFS_CACHE_DIR/journal/<hash of the real path>.db (or under the
// user's cache directory, see [Store.MetaPath]), with an intent log beside it
// (<hash>.intents, see intentlog.go). Nothing is created inside the root.
//
// A host directory has no transactions, so each change is recorded first, as pending
// (with its before and after versions and the content blobs), then made, then marked
// committed, or dropped if it failed. The record goes to the intent log, one write(2),
// which numbers the change; the log is folded into the database in batches (one
// transaction for many changes) before the journal is read, when it has grown past
// [foldBytes], at open and at Close. After a crash, opening the journal folds the log and
// settles every change still pending by looking at the file: holding the after version,
// it landed ([store.Committed]); holding the before version, it never did
// ([store.Unlanded]); holding anything else, it is [store.Diverged], and undo never
// touches it. A change another live process is still making is settled by that process
// again.
//
// The commit mark of a landed change waits: the next change's intent record carries it,
// or, when no change follows within [markDelay], it is written as a record of its own.
// Reading the journal in this process, and closing the store, write it first (a program
// that exits without closing leaves it to the next open). Until then the change is
// pending, which is what a crash would leave anyway: the file holds the change's after
// version, so the next open settles it as committed. (No later change to the path can
// come first: it is recorded in the record that carries the mark.)

var _ store.Journaler = (*Store)(nil)

// journalState is what a Store keeps of its journal; the zero value opens it on first use.
type journalState struct {
	once sync.Once
	j    *hostJournal
	err  error
}

// JournalPath returns the host path of the database that holds the store's journal.
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
	s       *Store
	path    string // of the database
	log     store.JournalDB
	intents *intentLog
	marks   *marks // shared by every journal of this database in the process

	closeOnce sync.Once
	closeErr  error
}

// markDelay is how long a landed change waits for the next change's intent record to carry
// its commit mark before the mark is appended as a record of its own.
const markDelay = 50 * time.Millisecond

// marks are the changes this process made to a directory that landed and whose commit
// mark is not in the intent log yet.
type marks struct {
	mu      sync.Mutex
	landed  []*store.Change
	pending bool // a write of landed is scheduled
	users   int  // journals open on the database; guarded by allMarks
}

// allMarks holds the marks of each journal database this process has open, shared by its
// journals: an entry lives while one is open (see marksOf and release), so a process that
// opens many directories in turn does not keep one per directory.
var allMarks = struct {
	sync.Mutex
	m map[string]*marks
}{m: map[string]*marks{}}

// marksOf returns the marks of the database at path, for a journal opening on it; the
// journal gives them back with release when it closes.
func marksOf(path string) *marks {
	allMarks.Lock()
	defer allMarks.Unlock()
	m := allMarks.m[path]
	if m == nil {
		m = &marks{}
		allMarks.m[path] = m
	}
	m.users++
	return m
}

// release ends a journal's use of the marks of the database at path. The last journal's
// Close wrote them first (or left them to the next open).
func (m *marks) release(path string) {
	allMarks.Lock()
	defer allMarks.Unlock()
	if m.users--; m.users == 0 && allMarks.m[path] == m {
		delete(allMarks.m, path)
	}
}

// take returns the landed changes not marked yet; the caller marks them or gives them back.
func (m *marks) take() []*store.Change {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.landed
	m.landed = nil
	return l
}

// giveBack returns changes take returned that could not be marked.
func (m *marks) giveBack(l []*store.Change) {
	if len(l) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.landed = append(l, m.landed...)
}

// landedNow adds changes that landed, and reports whether the caller must schedule their
// mark (none is scheduled yet).
func (m *marks) landedNow(l []*store.Change) (schedule bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.landed = append(m.landed, l...)
	schedule = !m.pending
	m.pending = true
	return schedule
}

// flush writes the marks not written yet to the intent log. An error leaves them pending,
// and the next open settles them by looking at the files.
func (j *hostJournal) flush() error {
	l := j.marks.take()
	if len(l) == 0 {
		return nil
	}
	if err := j.addMarks(l, store.Committed); err != nil {
		j.marks.giveBack(l)
		return err
	}
	return nil
}

// addMarks appends a record settling changes.
func (j *hostJournal) addMarks(changes []*store.Change, state store.State) error {
	r := &intentRecord{Marks: make([]mark, len(changes))}
	for i, c := range changes {
		r.Marks[i] = mark{ID: c.ID, State: state}
	}
	var set int64
	_, err := j.intents.add(r, &set)
	return err
}

// sync brings the database up to date: it writes the waiting marks, then folds the log.
func (j *hostJournal) sync(ctx context.Context) error {
	if err := j.flush(); err != nil {
		return err
	}
	return j.fold(ctx)
}

// fold moves the intent log's records into the database, in one transaction.
func (j *hostJournal) fold(ctx context.Context) error {
	return j.intents.fold(func(data []byte) error {
		f, err := batchOf(data)
		if ferr := j.log.Fold(context.WithoutCancel(ctx), f); ferr != nil {
			return ferr
		}
		return err
	})
}

// batchOf is what the records in data leave for the database: the changes not dropped,
// each in its latest state, the states of changes folded before, and their drops. A damaged
// record ends it: the batch holds the records before it, and the error says where.
func batchOf(data []byte) (store.JournalFold, error) {
	var f store.JournalFold
	byID := map[int64]*store.Change{}
	seen := map[string]bool{}
	_, err := scanRecords(data, func(r *intentRecord) {
		for _, m := range r.Marks {
			if c, ok := byID[m.ID]; ok {
				if m.State == stateDropped {
					delete(byID, m.ID)
				} else {
					c.State = m.State
				}
				continue
			}
			if m.State == stateDropped {
				f.Drops = append(f.Drops, m.ID)
				delete(f.States, m.ID)
				continue
			}
			if f.States == nil {
				f.States = map[int64]store.State{}
			}
			f.States[m.ID] = m.State
		}
		for _, c := range r.Changes {
			byID[c.ID] = c
			f.Changes = append(f.Changes, c)
		}
		for _, b := range r.Blobs {
			if h := store.Hash(b); !seen[h] {
				seen[h] = true
				f.Blobs, f.Hashes = append(f.Blobs, b), append(f.Hashes, h)
			}
		}
	})
	f.Changes = slices.DeleteFunc(f.Changes, func(c *store.Change) bool { return byID[c.ID] != c })
	return f, err
}

// flushLater is the scheduled write of marks that no change's intent carried.
func (j *hostJournal) flushLater() {
	j.marks.mu.Lock()
	j.marks.pending = false
	j.marks.mu.Unlock()
	if err := j.flush(); err != nil {
		j.marks.take() // the log is gone or broken: leave them to the next open
	}
}

func (s *Store) openJournal(ctx context.Context) (*hostJournal, error) {
	p, err := s.JournalPath()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	log, err := store.OpenJournalDB(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", p, err)
	}
	intents, err := openIntentLog(strings.TrimSuffix(p, ".db")+".intents", func() (int64, error) { return log.Seq(ctx) })
	if err != nil {
		log.Close()
		return nil, fmt.Errorf("journal %s: %w", p, err)
	}
	j := &hostJournal{s: s, path: p, log: log, intents: intents, marks: marksOf(p)}
	if err := j.fold(ctx); err != nil {
		j.close()
		return nil, fmt.Errorf("journal %s: %w", p, err)
	}
	if err := j.settle(ctx); err != nil {
		j.close()
		return nil, fmt.Errorf("journal %s: %w", p, err)
	}
	return j, nil
}

// close closes the journal's files; a second close (a Store closed twice) does nothing.
func (j *hostJournal) close() error {
	j.closeOnce.Do(func() {
		j.intents.close()
		j.marks.release(j.path)
		j.closeErr = j.log.Close()
	})
	return j.closeErr
}

// closeJournal closes the journal's database if it was opened.
func (s *Store) closeJournal() error {
	if j := s.journal.j; j != nil {
		err := j.sync(context.Background())
		if cerr := j.close(); err == nil {
			err = cerr
		}
		return err
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
	tx := &hostTx{Store: j.s, j: j, actor: actor}
	err := fn(tx)
	if tx.due {
		// Best effort: the changes are recorded; the next reader folds if this fails.
		j.fold(ctx)
	}
	return err
}

// The journal's readers write the marks that are waiting first, so this process sees its
// own changes committed.

func (j *hostJournal) Changes(ctx context.Context, f store.ChangeFilter) ([]store.Change, error) {
	if err := j.sync(ctx); err != nil {
		return nil, err
	}
	return j.log.Changes(ctx, f)
}
func (j *hostJournal) Change(ctx context.Context, id int64) (store.Change, error) {
	if err := j.sync(ctx); err != nil {
		return store.Change{}, err
	}
	return j.log.Change(ctx, id)
}
func (j *hostJournal) Blob(ctx context.Context, h string) ([]byte, error) {
	b, err := j.log.Blob(ctx, h)
	if errors.Is(err, fs.ErrNotExist) {
		// Content of a change still in the intent log.
		if err := j.sync(ctx); err != nil {
			return nil, err
		}
		b, err = j.log.Blob(ctx, h)
	}
	return b, err
}
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
	// The bounds are checked before the fold: the workspace prunes every few hundred change
	// sets, and folding each time made batches of that size, where folding by size
	// (foldBytes) makes them some twenty times larger and the fold's commit and b-tree
	// pages that much cheaper per change.
	if within, err := j.within(ctx, keep); err != nil || within {
		return 0, err
	}
	if err := j.sync(ctx); err != nil {
		return 0, err
	}
	return j.log.Prune(ctx, keep)
}

// within reports whether the whole journal, the intent log's records included, is surely
// within keep, in cheap steps (the database's own check reads every change): the database's
// files and the intent log, which hold its content and nothing else's, take no more than
// keep.MaxBytes, and its first change is young enough. The intent log's records are newer
// than the database's, so the database's first change is the journal's; when the database
// has none, the log's records may be old, and the journal is not surely within.
func (j *hostJournal) within(ctx context.Context, keep store.Retention) (bool, error) {
	logged, err := j.intents.size()
	if err != nil {
		return false, err
	}
	if keep.MaxBytes > 0 {
		size := logged
		for _, p := range []string{j.path, j.path + "-wal"} {
			fi, err := os.Stat(p)
			if err == nil {
				size += fi.Size()
			}
		}
		if size > keep.MaxBytes {
			return false, nil
		}
	}
	if keep.MaxAge <= 0 {
		return true, nil
	}
	oldest, err := j.log.Oldest(ctx)
	if err != nil {
		return false, err
	}
	if oldest.IsZero() {
		return logged <= logHead, nil
	}
	return time.Since(oldest) <= keep.MaxAge, nil
}
func (j *hostJournal) Last(ctx context.Context) (int64, error) {
	if err := j.sync(ctx); err != nil {
		return 0, err
	}
	return j.log.Last(ctx)
}
func (j *hostJournal) Wait(ctx context.Context, after int64) error {
	return store.WaitFor(ctx, after, j.Last, j.log.Notifier())
}

type hostTx struct {
	*Store
	j     *hostJournal
	actor string
	set   int64
	due   bool // the intent log is due for folding
	// What the last Add recorded, for WriteFile (see known.go): a write's content is in
	// the record made just before it.
	added []*store.Change
	blobs [][]byte
}

// Add records the changes as pending, in one record of the intent log, before they are
// made. The same record marks the changes that landed before them.
func (tx *hostTx) Add(ctx context.Context, changes []*store.Change, blobs [][]byte) error {
	landed := tx.j.marks.take()
	r := &intentRecord{Actor: tx.actor, Changes: changes, Blobs: blobs, Marks: make([]mark, len(landed))}
	for i, c := range landed {
		r.Marks[i] = mark{ID: c.ID, State: store.Committed}
	}
	due, err := tx.j.intents.add(r, &tx.set)
	if err != nil {
		tx.j.marks.giveBack(landed)
		return fmt.Errorf("journal: %w", err)
	}
	tx.due = tx.due || due
	tx.added, tx.blobs = changes, blobs
	return nil
}

// Settle leaves changes that landed to be marked later (see markDelay) and drops those that
// did not at once.
func (tx *hostTx) Settle(ctx context.Context, changes []*store.Change, landed bool) error {
	if landed {
		for _, c := range changes {
			c.State = store.Committed // as it will be in the database
		}
		if tx.j.marks.landedNow(changes) {
			time.AfterFunc(markDelay, tx.j.flushLater)
		}
		tx.j.log.Notify() // a waiter reading the journal now writes the mark first
		return nil
	}
	return tx.j.addMarks(changes, stateDropped)
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
