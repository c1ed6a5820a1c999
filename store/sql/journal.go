package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
		bound := &Store{x: j.s.x, ws: j.s.ws, id: j.s.id, tx: t}
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

var _ store.Snapshotter = (*Store)(nil)

// Snapshot implements [store.Snapshotter]: one query for the path's row, which holds a
// file's hash, and one for its content when that is wanted. A name below a file or a
// missing directory is absent, as in the fallback.
func (s *Store) Snapshot(ctx context.Context, name string, max int64) (store.Version, []byte, error) {
	if !fs.ValidPath(name) {
		return store.Version{}, nil, pathErr("snapshot", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	n, err := s.get(t, name, "")
	switch {
	case err != nil:
		return store.Version{}, nil, pathErr("snapshot", name, err)
	case n == nil:
		return store.Version{Kind: store.Absent}, nil, nil
	case n.dir:
		return store.Version{Kind: store.Dir}, nil, nil
	}
	v := store.Version{Kind: store.File, Hash: n.hash, Size: n.size}
	if n.size > max && n.hash != "" {
		return v, nil, nil
	}
	data, err := s.content(t, n)
	if err != nil {
		return store.Version{}, nil, pathErr("snapshot", name, err)
	}
	if n.size > max {
		v.Hash = store.Hash(data)
		return v, nil, nil
	}
	return store.FileVersion(data), data, nil
}

// content reads all of file n's content, in one query.
func (s *Store) content(t *txn, n *node) ([]byte, error) {
	data := make([]byte, 0, n.size)
	if n.blob == 0 {
		return data, nil
	}
	rows, err := t.query(`SELECT data FROM llmfs_chunks WHERE blob = ? ORDER BY seq`, n.blob)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		data = append(data, b...)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if int64(len(data)) != n.size {
		// Replaced since the row was read (outside a transaction): look again.
		return nil, store.ErrChanged
	}
	return data, nil
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
		default:
			now = store.Version{Kind: store.File, Hash: n.hash, Size: n.size}
		}
		if !now.Equal(c.Before) {
			return &fs.PathError{Op: "journal", Path: c.Path, Err: store.ErrChanged}
		}
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
	if err := insertBlobs(t, blobs); err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	var last int64
	if err := t.queryRow(`UPDATE llmfs_workspaces SET journal_seq = journal_seq + ? WHERE id = ? RETURNING journal_seq`,
		len(changes), l.ws).Scan(&last); err != nil {
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
		if _, err := t.exec(`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other,
			b_kind, b_hash, b_size, a_kind, a_hash, a_size, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			l.ws, c.ID, c.Set, now.UnixNano(), actor, c.Op, []byte(c.Path), []byte(c.Other),
			string(kindOf(c.Before)), c.Before.Hash, c.Before.Size, string(kindOf(c.After)), c.After.Hash, c.After.Size,
			string(state)); err != nil {
			return err
		}
	}
	return nil
}

// insertBlobs keeps the blobs not kept yet, in one statement: a change usually brings two
// (before and after), and each statement is a round through the database.
func insertBlobs(t *txn, blobs [][]byte) error {
	const most = 64 // rows per statement, far below either database's bound on parameters
	for len(blobs) > most {
		if err := insertBlobs(t, blobs[:most]); err != nil {
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
	for _, b := range blobs {
		h := store.Hash(b)
		if seen[h] {
			continue // one statement must not insert a key twice
		}
		seen[h] = true
		if len(args) > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?)")
		args = append(args, h, int64(len(b)), b)
	}
	q.WriteString(` ON CONFLICT (hash) DO NOTHING`)
	_, err := t.exec(q.String(), args...)
	return err
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

const changeCols = `id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state`

func scanChange(sc interface{ Scan(...any) error }) (store.Change, error) {
	var c store.Change
	var tm int64
	var p, o []byte
	var bk, ak, st string
	err := sc.Scan(&c.ID, &c.Set, &tm, &c.Actor, &c.Op, &p, &o, &bk, &c.Before.Hash, &c.Before.Size,
		&ak, &c.After.Hash, &c.After.Size, &st)
	c.Time = time.Unix(0, tm)
	c.Path, c.Other = string(p), string(o)
	c.Before.Kind, c.After.Kind, c.State = store.Kind(bk), store.Kind(ak), store.State(st)
	return c, err
}

// Changes implements [store.Journal].
func (l *jlog) Changes(ctx context.Context, f store.ChangeFilter) ([]store.Change, error) {
	q := `SELECT ` + changeCols + ` FROM llmfs_journal WHERE ws = ?`
	args := []any{l.ws}
	if f.Path != "" && f.Path != "." {
		// The path or anything below it: names between "p/" and "p0" ('/'+1) in byte order.
		p, lo, hi := []byte(f.Path), []byte(f.Path+"/"), []byte(f.Path+"0")
		q += ` AND (path = ? OR (path > ? AND path < ?) OR other = ? OR (other > ? AND other < ?))`
		args = append(args, p, lo, hi, p, lo, hi)
	}
	if f.Actor != "" {
		q += ` AND actor = ?`
		args = append(args, f.Actor)
	}
	if !f.Since.IsZero() {
		q += ` AND time >= ?`
		args = append(args, f.Since.UnixNano())
	}
	if f.After > 0 {
		q += ` AND id > ?`
		args = append(args, f.After)
	}
	if f.Upto > 0 {
		q += ` AND id <= ?`
		args = append(args, f.Upto)
	}
	if f.Set != 0 {
		q += ` AND cset = ?`
		args = append(args, f.Set)
	}
	q += ` ORDER BY id DESC`
	rows, err := l.x.db.QueryContext(ctx, l.x.d.rebind(q), args...)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer rows.Close()
	var out []store.Change
	for rows.Next() {
		c, err := scanChange(rows)
		if err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		if !f.Match(&c) {
			continue
		}
		out = append(out, c)
		if f.Limit > 0 && len(out) >= f.Limit {
			break
		}
	}
	return out, rows.Err()
}

// Change implements [store.Journal].
func (l *jlog) Change(ctx context.Context, id int64) (store.Change, error) {
	c, err := scanChange(l.x.db.QueryRowContext(ctx, l.x.d.rebind(`SELECT `+changeCols+` FROM llmfs_journal WHERE ws = ? AND id = ?`), l.ws, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = fs.ErrNotExist
	}
	if err != nil {
		return store.Change{}, &fs.PathError{Op: "change", Path: fmt.Sprint(id), Err: err}
	}
	return c, nil
}

// Blob implements [store.Journal].
func (l *jlog) Blob(ctx context.Context, h string) ([]byte, error) {
	var b []byte
	err := l.x.db.QueryRowContext(ctx, l.x.d.rebind(`SELECT data FROM llmfs_jblobs WHERE hash = ?`), h).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		err = fs.ErrNotExist
	}
	if err != nil {
		return nil, &fs.PathError{Op: "blob", Path: h, Err: err}
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// SetCheckpoint implements [store.Journal].
func (l *jlog) SetCheckpoint(ctx context.Context, name string, id int64) error {
	return l.x.write(ctx, true, func(t *txn) error {
		_, err := t.exec(`INSERT INTO llmfs_checkpoints (ws, name, id, time) VALUES (?, ?, ?, ?)
			ON CONFLICT (ws, name) DO UPDATE SET id = excluded.id, time = excluded.time`, l.ws, name, id, time.Now().UnixNano())
		return err
	})
}

// Checkpoint implements [store.Journal].
func (l *jlog) Checkpoint(ctx context.Context, name string) (store.Checkpoint, error) {
	c := store.Checkpoint{Name: name}
	var tm int64
	err := l.x.db.QueryRowContext(ctx, l.x.d.rebind(`SELECT id, time FROM llmfs_checkpoints WHERE ws = ? AND name = ?`),
		l.ws, name).Scan(&c.ID, &tm)
	if errors.Is(err, sql.ErrNoRows) {
		err = fs.ErrNotExist
	}
	if err != nil {
		return c, &fs.PathError{Op: "checkpoint", Path: name, Err: err}
	}
	c.Time = time.Unix(0, tm)
	return c, nil
}

// Checkpoints implements [store.Journal].
func (l *jlog) Checkpoints(ctx context.Context) ([]store.Checkpoint, error) {
	rows, err := l.x.db.QueryContext(ctx, l.x.d.rebind(`SELECT name, id, time FROM llmfs_checkpoints WHERE ws = ? ORDER BY time DESC, id DESC`), l.ws)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Checkpoint
	for rows.Next() {
		var c store.Checkpoint
		var tm int64
		if err := rows.Scan(&c.Name, &c.ID, &tm); err != nil {
			return nil, err
		}
		c.Time = time.Unix(0, tm)
		out = append(out, c)
	}
	return out, rows.Err()
}

// Last implements [store.Journal].
func (l *jlog) Last(ctx context.Context) (int64, error) {
	var id int64
	err := l.x.db.QueryRowContext(ctx, l.x.d.rebind(`SELECT COALESCE(MAX(id), 0) FROM llmfs_journal WHERE ws = ?`), l.ws).Scan(&id)
	return id, err
}

// Wait implements [store.Journal].
func (l *jlog) Wait(ctx context.Context, after int64) error {
	return store.WaitFor(ctx, after, l.Last, l.notifier())
}

// within reports whether the whole journal is within keep, so that pruning forgets
// nothing ([store.PruneCut] returns 0): its oldest change is young enough and its distinct
// content (each hash counted once, as PruneCut counts) small enough. Two aggregate queries
// instead of reading every change: pruning runs every few hundred change sets.
func (l *jlog) within(ctx context.Context, keep store.Retention) (bool, error) {
	t := &txn{ctx: ctx, q: l.x.db, d: l.x.d, x: l.x}
	var oldest, n int64
	if err := t.queryRow(`SELECT COALESCE(MIN(time), 0), COUNT(*) FROM llmfs_journal WHERE ws = ?`, l.ws).Scan(&oldest, &n); err != nil {
		return false, err
	}
	if n == 0 {
		return true, nil
	}
	if keep.MaxAge > 0 && time.Since(time.Unix(0, oldest)) > keep.MaxAge {
		return false, nil
	}
	if keep.MaxBytes <= 0 {
		return true, nil
	}
	var total int64
	err := t.queryRow(`SELECT COALESCE(SUM(size), 0) FROM (
		SELECT b_hash AS hash, b_size AS size FROM llmfs_journal WHERE ws = ? AND b_kind = 'file'
		UNION SELECT a_hash, a_size FROM llmfs_journal WHERE ws = ? AND a_kind = 'file') AS content`, l.ws, l.ws).Scan(&total)
	return err == nil && total <= keep.MaxBytes, err
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
	err = l.x.write(ctx, true, func(t *txn) error {
		var set int64
		if err := t.queryRow(`SELECT cset FROM llmfs_journal WHERE ws = ? AND id = ?`, l.ws, cut).Scan(&set); err != nil {
			return err
		}
		var last int64
		if err := t.queryRow(`SELECT COALESCE(MAX(id), 0) FROM llmfs_journal WHERE ws = ? AND (id <= ? OR cset = ?)`, l.ws, cut, set).Scan(&last); err != nil {
			return err
		}
		res, err := t.exec(`DELETE FROM llmfs_journal WHERE ws = ? AND (id <= ? OR cset = ?)`, l.ws, cut, set)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		if _, err := t.exec(`DELETE FROM llmfs_checkpoints WHERE ws = ? AND id < ?`, l.ws, last); err != nil {
			return err
		}
		_, err = t.exec(`DELETE FROM llmfs_jblobs WHERE hash NOT IN (SELECT b_hash FROM llmfs_journal) AND hash NOT IN (SELECT a_hash FROM llmfs_journal)`)
		return err
	})
	return int(n), err
}
