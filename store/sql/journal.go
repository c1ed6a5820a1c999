package sqlstore

import (
	"context"
	"database/sql"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/llmfs/llmfs/store"
)

// The journal ([store.Journal]) lives in the workspace's database: llmfs_journal holds one
// row per change, numbered per workspace by the workspace row's journal_seq (taking that
// row's lock, so on PostgreSQL the change sets of one workspace commit in the order of their
// IDs, and a reader following the feed never sees a gap filled later); llmfs_jblobs keeps
// content by hash, one row per distinct content shared by every workspace of the database;
// llmfs_checkpoints names points. A change set's entries are written in the same
// transaction as its changes.

var _ store.Journaler = (*Store)(nil)

// change runs fn in the transaction the store is bound to (a change set of its journal),
// or else in a writing transaction of its own.
func (s *Store) change(ctx context.Context, retry bool, fn func(t *txn) error) error {
	if s.tx != nil {
		// What the change set looked at may have changed now.
		defer s.seen.forget()
		return fn(s.tx)
	}
	return s.x.write(ctx, retry, fn)
}

// Journal implements [store.Journaler].
func (s *Store) Journal() store.Journal {
	return &sqlJournal{jlog: jlog{x: s.x, ws: s.ws}, s: s}
}

// jlog is the journal of workspace ws: what a store's journal and a [Log] share.
type jlog struct {
	x  *DB
	ws int64
}

func (l *jlog) notifier() *store.Notifier {
	n, _ := l.x.notifiers.LoadOrStore(l.ws, new(store.Notifier))
	return n.(*store.Notifier)
}

type sqlJournal struct {
	jlog
	s *Store
}

// Apply implements [store.Journal]: fn runs in one writing transaction, retried on a
// PostgreSQL serialization failure or deadlock; the changes and their entries commit
// together or not at all. Change sets of one workspace commit one at a time, in the
// order of their IDs (from their first Add to their commit).
func (j *sqlJournal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	err := j.x.write(ctx, true, func(t *txn) error {
		bound := &Store{x: j.s.x, ws: j.s.ws, id: j.s.id, tx: t, seen: &seen{}}
		tx := &sqlTx{Store: bound, l: &j.jlog, t: t, actor: actor}
		if err := fn(tx); err != nil {
			return err
		}
		// Number and write the entries last, just before the commit: the workspace row's
		// lock that numbering takes is then held only briefly, and change sets touching
		// different files run side by side until there.
		var set int64
		return tx.l.add(t, actor, &set, tx.landed, nil, store.Committed)
	})
	if err == nil {
		j.notifier().Notify()
	}
	return err
}

type sqlTx struct {
	*Store
	l      *jlog
	t      *txn
	actor  string
	landed []*store.Change // added and not dropped, in order: written at the end of Apply
}

// Add implements [store.JournalTx]. It keeps the blobs at once and the changes for the
// end of the change set. First it locks the row of each change's path (on PostgreSQL;
// SQLite's writers are serialized anyway) and checks that the change's Before is still
// what the path holds: another transaction may have committed a change to it since the
// caller looked. If not, it fails with [store.ErrChanged], and the caller looks again
// (the row now locked, so nobody else gets in) and retries.
func (tx *sqlTx) Add(ctx context.Context, changes []*store.Change, blobs [][]byte) error {
	t := tx.t
	for _, c := range changes {
		if t.d.name == SQLite {
			// The caller looked inside this transaction, which holds the write lock since
			// its start (BEGIN IMMEDIATE): nothing can have changed since.
			break
		}
		n, err := tx.Store.get(t, c.Path, t.d.forUpdate)
		if err != nil {
			return err
		}
		now := store.Version{Kind: store.Absent}
		switch {
		case n == nil:
		case n.dir:
			now = store.Version{Kind: store.Dir}
		case n.link:
			now = store.Version{Kind: store.Link}
		default:
			now = store.Version{Kind: store.File, Hash: n.hash, Size: n.size}
		}
		if !now.Equal(c.Before) {
			tx.seen.forget() // the caller looks again: at the row, not at what it saw
			return &fs.PathError{Op: "journal", Path: c.Path, Err: store.ErrChanged}
		}
	}
	if t.d.name == SQLite {
		// Only SQLite's change set holds the write lock from its start, so that no prune can
		// delete a blob between the look that found it kept and this insert. On PostgreSQL
		// every blob is offered again; one kept already conflicts and is not inserted.
		blobs = tx.seen.unkept(blobs)
	}
	if err := tx.l.add(t, tx.actor, nil, nil, blobs, store.Committed); err != nil {
		return err
	}
	for _, c := range changes {
		c.Actor, c.State = tx.actor, store.Committed
	}
	tx.landed = append(tx.landed, changes...)
	return nil
}

func (tx *sqlTx) Settle(ctx context.Context, changes []*store.Change, landed bool) error {
	if landed {
		return nil
	}
	tx.landed = slices.DeleteFunc(tx.landed, func(c *store.Change) bool { return slices.Contains(changes, c) })
	return nil
}

// add keeps blobs, then numbers changes and records them in state.
func (l *jlog) add(t *txn, actor string, set *int64, changes []*store.Change, blobs [][]byte, state store.State) error {
	if err := insertBlobs(l.x, t, blobs, nil); err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	var last, size int64
	for _, c := range changes {
		size += fileSize(c.Before) + fileSize(c.After)
	}
	if err := t.queryRow(`UPDATE llmfs_workspaces SET journal_seq = journal_seq + ?, journal_bytes = journal_bytes + ?
		WHERE id = ? RETURNING journal_seq`, len(changes), size, l.ws).Scan(&last); err != nil {
		return err
	}
	now := time.Now()
	id := last - int64(len(changes))
	for _, c := range changes {
		id++
		if *set == 0 {
			*set = id
		}
		c.ID, c.Set, c.Time, c.Actor, c.State = id, *set, now, actor, state
		added, removed := lineCols(c.Lines)
		if _, err := t.exec(`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other,
			b_kind, b_hash, b_size, a_kind, a_hash, a_size, state, added, removed)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			l.ws, c.ID, c.Set, now.UnixNano(), actor, c.Op, []byte(c.Path), []byte(c.Other),
			string(kindOf(c.Before)), c.Before.Hash, c.Before.Size, string(kindOf(c.After)), c.After.Hash, c.After.Size,
			string(state), added, removed); err != nil {
			return err
		}
	}
	return nil
}

// insertBlobs keeps the blobs not kept yet, in one statement: a change usually brings two
// (before and after), and each statement is a round through the database. hashes, when not
// nil, holds each blob's [store.Hash], which the caller has computed already.
func insertBlobs(x *DB, t *txn, blobs [][]byte, hashes []string) error {
	const most = 64 // rows per statement, far below either database's bound on parameters
	for len(blobs) > most {
		var first []string
		if hashes != nil {
			first, hashes = hashes[:most], hashes[most:]
		}
		if err := insertBlobs(x, t, blobs[:most], first); err != nil {
			return err
		}
		blobs = blobs[most:]
	}
	if len(blobs) == 0 {
		return nil
	}
	var q strings.Builder
	q.WriteString(`INSERT INTO llmfs_jblobs (hash, size, data) VALUES `)
	args := make([]any, 0, 3*len(blobs))
	seen := make(map[string]bool, len(blobs))
	for i, b := range blobs {
		var h string
		if hashes != nil {
			h = hashes[i]
		} else {
			h = store.Hash(b)
		}
		if seen[h] {
			continue // one statement must not insert a key twice
		}
		seen[h] = true
		if len(b) > blobPart {
			if err := insertParted(x, t, h, b); err != nil {
				return err
			}
			continue
		}
		if len(args) > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?)")
		args = append(args, h, int64(len(b)), b)
	}
	if len(args) == 0 {
		return nil // every blob was parted
	}
	if err := shareBlobs(t, args); err != nil {
		return err
	}
	q.WriteString(` ON CONFLICT (hash) DO NOTHING`)
	_, err := t.exec(q.String(), args...)
	return err
}

// fileSize is what version v adds to the bound on a journal's content (journal_bytes).
func fileSize(v store.Version) int64 {
	if v.Kind == store.File {
		return v.Size
	}
	return 0
}

func kindOf(v store.Version) store.Kind {
	if v.Kind == "" {
		return store.Absent
	}
	return v.Kind
}

func (l *jlog) drop(t *txn, changes []*store.Change) error {
	for _, c := range changes {
		if _, err := t.exec(`DELETE FROM llmfs_journal WHERE ws = ? AND id = ?`, l.ws, c.ID); err != nil {
			return err
		}
	}
	return nil
}

// within reports whether the whole journal is within keep, so that pruning forgets
// nothing ([store.PruneCut] returns 0): its oldest change is young enough and its distinct
// content (each hash counted once, as PruneCut counts) small enough. Pruning runs every few
// hundred change sets, so this is one query on the workspace row and the journal's first
// entry: the row's journal_bytes bounds the distinct content from above. Only a bound past
// keep has the content counted exactly, and the bound lowered to the count. (The age is the
// first change's: a change timed earlier still, by another host's clock, waits for it.)
func (l *jlog) within(ctx context.Context, keep store.Retention) (bool, error) {
	t := &txn{ctx: ctx, q: l.x.db, d: l.x.d, x: l.x}
	var bound int64
	var oldest sql.NullInt64
	if err := t.queryRow(`SELECT journal_bytes, (SELECT time FROM llmfs_journal WHERE ws = ? ORDER BY id LIMIT 1)
		FROM llmfs_workspaces WHERE id = ?`, l.ws, l.ws).Scan(&bound, &oldest); err != nil {
		return false, err
	}
	if !oldest.Valid {
		return true, nil // no changes
	}
	if keep.MaxAge > 0 && time.Since(time.Unix(0, oldest.Int64)) > keep.MaxAge {
		return false, nil
	}
	if keep.MaxBytes <= 0 || bound <= keep.MaxBytes {
		return true, nil
	}
	var total int64
	err := l.x.write(ctx, true, func(t *txn) error {
		if err := l.lock(t); err != nil {
			return err
		}
		var err error
		total, err = l.recount(t)
		return err
	})
	return err == nil && total <= keep.MaxBytes, err
}

// lock locks the workspace row (on PostgreSQL), which every change set takes to number its
// entries before it writes them: so a count of the journal made after misses none.
func (l *jlog) lock(t *txn) error {
	var seq int64
	return t.queryRow(`SELECT journal_seq FROM llmfs_workspaces WHERE id = ?`+t.d.forUpdate, l.ws).Scan(&seq)
}

// recount counts the journal's distinct content and sets journal_bytes to it. The caller
// holds the workspace row's lock (see lock).
func (l *jlog) recount(t *txn) (int64, error) {
	var total int64
	if err := t.queryRow(`SELECT COALESCE(SUM(size), 0) FROM (
		SELECT b_hash AS hash, b_size AS size FROM llmfs_journal WHERE ws = ? AND b_kind = 'file'
		UNION SELECT a_hash, a_size FROM llmfs_journal WHERE ws = ? AND a_kind = 'file') AS content`, l.ws, l.ws).Scan(&total); err != nil {
		return 0, err
	}
	_, err := t.exec(`UPDATE llmfs_workspaces SET journal_bytes = ? WHERE id = ?`, total, l.ws)
	return total, err
}

// A Log is a journal kept in a database for files kept elsewhere: the journal of a host
// directory (package store/osdir) lives in a SQLite file beside it. It has the read side of
// [store.Journal]; its owner records changes with Add and settles them with SetState or Drop,
// each in a transaction of its own.
type Log struct {
	jlog
}

// Log returns the journal of workspace id, creating the workspace if it does not exist.
func (x *DB) Log(ctx context.Context, id string) (*Log, error) {
	s, err := x.Workspace(ctx, id, &Options{Create: true})
	if err != nil {
		return nil, err
	}
	return &Log{jlog{x: x, ws: s.ws}}, nil
}

// Add records changes by actor in state, with the blobs they refer to, in one transaction.
// The changes join change set set, or start one when set is 0; it returns the set. In the
// same transaction it first marks the changes in landed [store.Committed] (see
// [Log.SetState]): a host directory marks the changes it made last so, rather than in a
// transaction of their own.
func (l *Log) Add(ctx context.Context, actor string, set int64, changes []*store.Change, blobs [][]byte, state store.State, landed []*store.Change) (int64, error) {
	err := l.x.write(ctx, true, func(t *txn) error {
		if err := l.setState(t, landed, store.Committed); err != nil {
			return err
		}
		s := set
		if err := l.add(t, actor, &s, changes, blobs, state); err != nil {
			return err
		}
		set = s
		return nil
	})
	if err == nil {
		for _, c := range landed {
			c.State = store.Committed
		}
	}
	return set, err
}

// Notify wakes this process's waiters ([store.Journal.Wait]).
func (l *Log) Notify() { l.notifier().Notify() }

// SetState sets the state of changes and wakes this process's waiters.
func (l *Log) SetState(ctx context.Context, changes []*store.Change, state store.State) error {
	if len(changes) == 0 {
		return nil
	}
	err := l.x.write(ctx, true, func(t *txn) error { return l.setState(t, changes, state) })
	if err == nil {
		for _, c := range changes {
			c.State = state
		}
		l.notifier().Notify()
	}
	return err
}

func (l *jlog) setState(t *txn, changes []*store.Change, state store.State) error {
	for _, c := range changes {
		if _, err := t.exec(`UPDATE llmfs_journal SET state = ? WHERE ws = ? AND id = ?`, string(state), l.ws, c.ID); err != nil {
			return err
		}
	}
	return nil
}

// Drop removes changes that never happened.
func (l *Log) Drop(ctx context.Context, changes []*store.Change) error {
	return l.x.write(ctx, true, func(t *txn) error { return l.drop(t, changes) })
}

// Prune implements [store.Journal]. Content is shared by every workspace of the database:
// a blob goes when no change of any workspace refers to it.
func (l *jlog) Prune(ctx context.Context, keep store.Retention) (int, error) {
	if within, err := l.within(ctx, keep); err != nil || within {
		return 0, err
	}
	all, err := l.Changes(ctx, store.ChangeFilter{})
	if err != nil {
		return 0, err
	}
	cut := store.PruneCut(all, keep, time.Now())
	if cut == 0 {
		return 0, nil
	}
	var n int64
	var hashes []string // the content of the changes pruned: candidates for deletion
	err = l.x.write(ctx, true, func(t *txn) error {
		// The workspace row's lock first, as a change set takes it to number its entries.
		// The content no change refers to any more goes after the commit, in a
		// transaction of its own (dropUnreferenced).
		if err := l.lock(t); err != nil {
			return err
		}
		var set int64
		if err := t.queryRow(`SELECT cset FROM llmfs_journal WHERE ws = ? AND id = ?`, l.ws, cut).Scan(&set); err != nil {
			return err
		}
		var last int64
		if err := t.queryRow(`SELECT COALESCE(MAX(id), 0) FROM llmfs_journal WHERE ws = ? AND (id <= ? OR cset = ?)`, l.ws, cut, set).Scan(&last); err != nil {
			return err
		}
		n, hashes = 0, hashes[:0]
		rows, err := t.query(`DELETE FROM llmfs_journal WHERE ws = ? AND (id <= ? OR cset = ?) RETURNING b_hash, a_hash`, l.ws, cut, set)
		if err != nil {
			return err
		}
		for rows.Next() {
			var b, a string
			if err := rows.Scan(&b, &a); err != nil {
				rows.Close()
				return err
			}
			n++
			hashes = append(hashes, b, a)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := t.exec(`DELETE FROM llmfs_checkpoints WHERE ws = ? AND id < ?`, l.ws, last); err != nil {
			return err
		}
		_, err = l.recount(t)
		return err
	})
	if err != nil {
		return 0, err
	}
	return int(n), l.x.dropUnreferenced(ctx, hashes)
}
