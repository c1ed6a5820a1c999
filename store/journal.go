package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"sync"
	"time"
)

// A Journaler is a Store that keeps a journal: the history of the changes made through it,
// with the content before and after each one. The llmfs core records every change it makes
// there; the history, diff, undo and checkpoint operations read it back.
type Journaler interface {
	Store
	// Journal returns the store's journal. Every call returns the same journal.
	Journal() Journal
}

// A Journal records changes in change sets. Implementations must be safe for concurrent use.
//
// Changes are numbered by ID, starting at 1 and increasing in the order they were recorded;
// an ID is never reused, even when the change it named was dropped. Content is kept by
// [Hash]: one copy per distinct content, however many changes refer to it.
type Journal interface {
	// Apply runs fn as one change set: fn makes the changes through tx, which is a Store
	// over the same files, and records each with tx.Add before it makes it and tx.Settle
	// after. In a SQL store tx is bound to one database transaction that holds the files'
	// changes and their entries together, so either both land or neither; fn may then be
	// run again after a serialization failure, and must be safe to repeat. Elsewhere the
	// changes are made one by one and the journal keeps what landed.
	Apply(ctx context.Context, actor string, fn func(tx JournalTx) error) error

	// Changes returns the changes f selects, newest first.
	Changes(ctx context.Context, f ChangeFilter) ([]Change, error)
	// Change returns the change id, or an error wrapping [fs.ErrNotExist].
	Change(ctx context.Context, id int64) (Change, error)
	// Blob returns the content with hash h, or an error wrapping [fs.ErrNotExist] when the
	// journal does not keep it.
	Blob(ctx context.Context, h string) ([]byte, error)

	// SetCheckpoint names the point after change id (0: before any change), replacing any
	// checkpoint of that name.
	SetCheckpoint(ctx context.Context, name string, id int64) error
	// Checkpoint returns the named checkpoint, or an error wrapping [fs.ErrNotExist].
	Checkpoint(ctx context.Context, name string) (Checkpoint, error)
	// Checkpoints returns every checkpoint, newest first.
	Checkpoints(ctx context.Context) ([]Checkpoint, error)

	// Prune forgets the oldest change sets until what is left is younger than keep.MaxAge
	// and its distinct content takes at most keep.MaxBytes (a zero field: no bound), drops
	// the checkpoints that pointed before what is left, and deletes the content no change
	// refers to any more. It returns the number of changes forgotten.
	Prune(ctx context.Context, keep Retention) (int, error)

	// Last returns the ID of the newest change, 0 for none.
	Last(ctx context.Context) (int64, error)
	// Wait returns once a change newer than after is recorded, or with ctx's error when ctx
	// is done first. A change recorded by another process is seen within a second.
	Wait(ctx context.Context, after int64) error
}

// A JournalTx is the store a change set changes, and the record of what it changes.
type JournalTx interface {
	Store
	// Add records changes about to be made and keeps the blobs (contents) they refer to.
	// Each change's ID, Set, Time, Actor and State are set by the time Apply returns (a
	// SQL journal numbers a change set's entries just before its commit). It may fail with an error
	// wrapping [ErrChanged] when a change's Before is no longer what the path holds (a
	// writer elsewhere got in first); the caller looks again and retries, and from then on
	// nobody else gets in.
	Add(ctx context.Context, changes []*Change, blobs [][]byte) error
	// Settle says whether the changes last added landed. Changes that did not are dropped.
	Settle(ctx context.Context, changes []*Change, landed bool) error
}

// A Version is what a path held before or after a change.
type Version struct {
	Kind Kind   `json:"kind"`           // Absent, File or Dir
	Hash string `json:"hash,omitempty"` // a file's [Hash]
	Size int64  `json:"size,omitempty"` // a file's size
}

// Kind says what a path holds.
type Kind string

// The kinds of [Version].
const (
	Absent Kind = "absent"
	File   Kind = "file"
	Dir    Kind = "dir"
	Link   Kind = "link" // a symbolic link; its target is not kept
)

// FileVersion is the version of a file holding data.
func FileVersion(data []byte) Version {
	return Version{Kind: File, Hash: Hash(data), Size: int64(len(data))}
}

// Equal reports whether v and o describe the same state.
func (v Version) Equal(o Version) bool {
	if v.kind() == Link && (v.Hash == "" || o.Hash == "") {
		return o.kind() == Link // recorded before links kept their targets: any link
	}
	return v.kind() == o.kind() && v.Hash == o.Hash && (v.kind() != File || v.Size == o.Size)
}

// LinkVersion is the version of a symbolic link to target, and the content the journal
// keeps of it (the target), so that undo can make the link again.
func LinkVersion(target string) (Version, []byte) {
	data := []byte(target)
	return Version{Kind: Link, Hash: Hash(data), Size: int64(len(data))}, data
}

// linkSnapshot is the version of the link name in s, with its target when s reads links.
func linkSnapshot(ctx context.Context, s Store, name string) (Version, []byte, error) {
	sl, ok := s.(Symlinker)
	if !ok {
		return Version{Kind: Link}, nil, nil
	}
	target, err := sl.Readlink(ctx, name)
	if err != nil {
		return Version{}, nil, err
	}
	v, data := LinkVersion(target)
	return v, data, nil
}

func (v Version) kind() Kind {
	if v.Kind == "" {
		return Absent
	}
	return v.Kind
}

// State says whether a recorded change landed.
type State string

// The states of a [Change].
const (
	// Committed: the change landed.
	Committed State = "committed"
	// Pending: the change is being made (a host directory's journal records its intent first).
	Pending State = "pending"
	// Unlanded: the change was recorded but never made (the process died first); the path
	// still held the before content when the journal was next opened.
	Unlanded State = "unlanded"
	// Diverged: when the journal was next opened after a crash, the path held neither the
	// before nor the after content. Such a change is never undone.
	Diverged State = "diverged"
)

// A Change is one entry of a journal: one path's change.
type Change struct {
	ID     int64     `json:"id"`
	Set    int64     `json:"set"` // the ID of the first change of its change set
	Time   time.Time `json:"time"`
	Actor  string    `json:"actor"`
	Op     string    `json:"op"`              // write, append, create, edit, patch, delete, move, copy, mkdir, system, undo, restore
	Path   string    `json:"path"`            // store name of the path changed
	Other  string    `json:"other,omitempty"` // move: the other end; copy: the source
	Before Version   `json:"before"`
	After  Version   `json:"after"`
	State  State     `json:"state"`
	// Lines are the lines the change added and removed, counted when it was recorded, so
	// that a listing loads no content; Counted is false in an entry recorded without them
	// (by a journal older than the counts, or by a writer that had not both contents in
	// hand), whose reader counts from the content the journal keeps.
	Lines Lines `json:"lines,omitzero"`
}

// Lines are the lines a change added and removed (see [Change.Lines]).
type Lines struct {
	Added   int  `json:"added"`
	Removed int  `json:"removed"`
	Counted bool `json:"counted"`
}

// A ChangeFilter selects changes. The zero value selects all.
type ChangeFilter struct {
	// Path selects changes to the path or, for a directory, below it ("." selects all);
	// the other end of a move or copy counts too.
	Path   string
	Actor  string    // only this actor's changes
	Since  time.Time // only changes at or after this time
	After  int64     // only changes with a larger ID
	Upto   int64     // only changes with this ID or a smaller one (0: no bound)
	Set    int64     // only this change set
	Limit  int       // at most this many (0: no limit)
	States []State   // only changes in these states (nil: all)
}

// Match reports whether f selects c, all but Limit considered.
func (f ChangeFilter) Match(c *Change) bool {
	if f.Path != "" && f.Path != "." && !under(c.Path, f.Path) && (c.Other == "" || !under(c.Other, f.Path)) {
		return false
	}
	if f.Actor != "" && c.Actor != f.Actor {
		return false
	}
	if !f.Since.IsZero() && c.Time.Before(f.Since) {
		return false
	}
	if c.ID <= f.After || (f.Upto > 0 && c.ID > f.Upto) {
		return false
	}
	if f.Set != 0 && c.Set != f.Set {
		return false
	}
	if f.States != nil {
		ok := false
		for _, s := range f.States {
			ok = ok || c.State == s
		}
		return ok
	}
	return true
}

func under(name, dir string) bool {
	return name == dir || strings.HasPrefix(name, dir+"/")
}

// A Checkpoint names a point in a journal: everything up to and including change ID.
type Checkpoint struct {
	Name string    `json:"name"`
	ID   int64     `json:"id"`
	Time time.Time `json:"time"`
}

// Retention bounds what a journal keeps; see [Journal.Prune].
type Retention struct {
	MaxAge   time.Duration // forget changes older than this (0: no bound)
	MaxBytes int64         // keep at most this much distinct content (0: no bound)
}

// PruneCut returns the ID of the newest change that keep drops from changes (given newest
// first), 0 for none: the newest one older than MaxAge, or the one whose content, added to
// that of all newer changes, first exceeds MaxBytes (each distinct content counted once).
func PruneCut(changes []Change, keep Retention, now time.Time) int64 {
	seen := map[string]bool{}
	var total int64
	for _, c := range changes {
		if keep.MaxAge > 0 && now.Sub(c.Time) > keep.MaxAge {
			return c.ID
		}
		for _, v := range []Version{c.Before, c.After} {
			if v.Kind == File && !seen[v.Hash] {
				seen[v.Hash] = true
				total += v.Size
			}
		}
		if keep.MaxBytes > 0 && total > keep.MaxBytes {
			return c.ID
		}
	}
	return 0
}

// ErrNoJournal reports a store without a journal.
var ErrNoJournal = errors.New("the store keeps no journal")

// PollInterval is how often a journal's Wait looks for changes made by other processes.
const PollInterval = 250 * time.Millisecond

// A Notifier wakes the journal waiters of one process when a change is recorded. The zero
// value is ready.
type Notifier struct {
	mu sync.Mutex
	ch chan struct{}
}

// C returns a channel closed at the next [Notifier.Notify].
func (n *Notifier) C() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = make(chan struct{})
	}
	return n.ch
}

// Notify wakes every waiter.
func (n *Notifier) Notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch != nil {
		close(n.ch)
		n.ch = nil
	}
}

// WaitFor implements [Journal.Wait] for a journal whose newest ID last returns: it wakes on
// n (changes of this process) and looks every [PollInterval] (changes of other processes).
func WaitFor(ctx context.Context, after int64, last func(context.Context) (int64, error), n *Notifier) error {
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	for {
		c := n.C()
		id, err := last(ctx)
		if err != nil {
			return err
		}
		if id > after {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c:
		case <-t.C:
		}
	}
}

// A Snapshotter is a Store that takes a [Snapshot] itself, in fewer steps than the
// fallback's stat, open and read (a SQL store also knows a file's hash without reading it).
type Snapshotter interface {
	Store
	Snapshot(ctx context.Context, name string, max int64) (Version, []byte, error)
}

// Snapshot returns what name holds in s now: absent, a directory, a symbolic link (not
// followed), or a file's version and, when the file is at most max bytes, its content (nil
// for a larger file, whose hash is still computed). It calls s.Snapshot if s is a
// [Snapshotter].
func Snapshot(ctx context.Context, s Store, name string, max int64) (Version, []byte, error) {
	if sn, ok := s.(Snapshotter); ok {
		return sn.Snapshot(ctx, name, max)
	}
	fi, err := Lstat(ctx, s, name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return linkSnapshot(ctx, s, name)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotDir):
		return Version{Kind: Absent}, nil, nil
	case err != nil:
		return Version{}, nil, err
	case fi.IsDir():
		return Version{Kind: Dir}, nil, nil
	}
	f, err := s.Open(ctx, name)
	if err != nil {
		return Version{}, nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		h, err := HashReader(f)
		if err != nil {
			return Version{}, nil, err
		}
		return Version{Kind: File, Hash: h, Size: fi.Size()}, nil, nil
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return Version{}, nil, err
	}
	if int64(len(data)) > max {
		return Version{Kind: File, Hash: Hash(data), Size: int64(len(data))}, nil, nil
	}
	return FileVersion(data), data, nil
}
