package store

import (
	"context"
	"errors"
	"sync"
	"time"
)

// A JournalDB is the database a store that keeps its journal outside itself folds its
// changes into: a host directory (package store/osdir) records each change first in an
// append-only intent log beside the database and folds many records into it at once.
// The store only declares what it needs; the database comes from a package of its own
// (store/sql/hostjournal, an embedded SQLite database), registered with
// [RegisterJournalDB], so that importing the host store links no database driver.
type JournalDB interface {
	// Fold writes a batch of changes recorded elsewhere first, in one transaction, and
	// raises the sequence ([JournalDB.Seq]) to the batch's highest ID.
	Fold(ctx context.Context, f JournalFold) error
	// Seq returns the highest change ID ever handed out.
	Seq(ctx context.Context) (int64, error)
	// SetState sets the state of changes folded earlier and wakes this process's waiters.
	SetState(ctx context.Context, changes []*Change, state State) error
	// Oldest returns the time of the oldest change held, zero when there is none.
	Oldest(ctx context.Context) (time.Time, error)
	// Notifier wakes this process's waiters of the journal; Notify wakes them now.
	Notifier() *Notifier
	Notify()

	Changes(ctx context.Context, f ChangeFilter) ([]Change, error)
	Change(ctx context.Context, id int64) (Change, error)
	Blob(ctx context.Context, hash string) ([]byte, error)
	SetCheckpoint(ctx context.Context, name string, id int64) error
	Checkpoint(ctx context.Context, name string) (Checkpoint, error)
	Checkpoints(ctx context.Context) ([]Checkpoint, error)
	Prune(ctx context.Context, keep Retention) (int, error)
	Last(ctx context.Context) (int64, error)
	Close() error
}

// A JournalFold is a batch of changes recorded elsewhere first, already numbered.
type JournalFold struct {
	// Changes are new entries, each with its ID, Set, Time, Actor and State set. An entry
	// whose ID the database holds already (a batch folded again after a crash between its
	// commit and the truncation of the intent log) has its state replaced.
	Changes []*Change
	// Blobs are the contents the changes refer to.
	Blobs [][]byte
	// Hashes, when not nil, are the Blobs' hashes ([Hash]), in order: a caller that
	// computed them (to tell the blobs apart) saves the fold computing them again.
	Hashes []string
	// States settles entries folded earlier: ID to its new state.
	States map[int64]State
	// Drops are IDs of entries folded earlier that never happened.
	Drops []int64
}

// ErrNoJournalDB is the error of [OpenJournalDB] when no package registered a journal
// database.
var ErrNoJournalDB = errors.New("no journal database: import github.com/llmfs/llmfs/store/sql/hostjournal (llmfs/host does)")

var journalDB struct {
	sync.Mutex
	open func(ctx context.Context, path string) (JournalDB, error)
}

// RegisterJournalDB makes open the opener of journal databases, as database/sql drivers
// register: a package providing one calls it from its init. The last registration wins.
func RegisterJournalDB(open func(ctx context.Context, path string) (JournalDB, error)) {
	journalDB.Lock()
	defer journalDB.Unlock()
	journalDB.open = open
}

// OpenJournalDB opens (creating it if need be) the journal database at the host path path
// with the registered opener, or fails with [ErrNoJournalDB].
func OpenJournalDB(ctx context.Context, path string) (JournalDB, error) {
	journalDB.Lock()
	open := journalDB.open
	journalDB.Unlock()
	if open == nil {
		return nil, ErrNoJournalDB
	}
	return open(ctx, path)
}
