package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
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

var _ store.Snapshotter = (*Store)(nil)

// seen is what a change set's transaction has looked at: the rows its Stat and Snapshot
// read, each with the file's first chunk, until the change set changes something; and the
// content the journal is known to keep already. A journaled write looks at its file three
// times (the operation's Stat, the journal's snapshot of the content it replaces, the
// write itself): the snapshot then costs no query, and the content before a write, which
// is mostly the content after the one before it, is neither read again nor offered to the
// journal again. (On PostgreSQL a prune running beside the change set may delete a blob
// known kept before the change set's entries commit, as it could before: a blob offered
// again conflicts with the kept row and is not inserted either.)
type seen struct {
	mu    sync.Mutex
	looks map[string]*look
	kept  map[string]bool // hashes of content llmfs_jblobs holds
}

// maxLooks bounds the looks a change set keeps (each may hold a chunk of 64 KiB): a
// journaled write needs only its own path's.
const maxLooks = 16

// A look is what a path held: its row (nil if none) and, for a file, its first chunk.
type look struct {
	n     *node
	first []byte
}

func (c *seen) get(name string) *look {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.looks[name]
}

func (c *seen) put(name string, l *look, kept bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.looks == nil {
		c.looks = map[string]*look{}
	}
	if len(c.looks) >= maxLooks {
		// An undo or restore snapshots every path it puts back before it changes any:
		// keeping every look (with its first chunk) would hold them all in memory at once.
		clear(c.looks)
	}
	c.looks[name] = l
	if kept {
		c.keep(l.n.hash)
	}
}

// keep notes that the journal keeps content h; c.mu is held.
func (c *seen) keep(h string) {
	if c.kept == nil {
		c.kept = map[string]bool{}
	}
	c.kept[h] = true
}

func (c *seen) isKept(h string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kept[h]
}

func (c *seen) markKept(h string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep(h)
}

// forget drops the looks: the change set changed something. c may be nil (a store not
// bound to a change set).
func (c *seen) forget() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.looks)
}

// unkept returns the blobs the journal is not known to keep, noting them as kept: the
// caller inserts them in the change set's transaction.
func (c *seen) unkept(blobs [][]byte) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := blobs[:0:0]
	for _, b := range blobs {
		h := store.Hash(b)
		if c.kept[h] {
			continue
		}
		c.keep(h)
		out = append(out, b)
	}
	return out
}

// look returns what name holds, in one query: its row (nil if none), the first chunk of
// its content, and whether the journal keeps that content. In a change set it answers
// from what the change set saw, when it has not changed anything since.
func (s *Store) look(t *txn, name string) (*look, error) {
	if s.seen != nil {
		if l := s.seen.get(name); l != nil {
			return l, nil
		}
	}
	var n node
	var p, first []byte
	var dir int64
	var kept bool
	err := t.queryRow(`SELECT n.id, n.path, n.dir, n.size, n.mtime, n.hash, n.hstate, n.blob, `+firstChunk+`,
		EXISTS (SELECT 1 FROM llmfs_jblobs j WHERE j.hash = n.hash)
		FROM llmfs_nodes n LEFT JOIN llmfs_chunks c ON c.blob = n.blob AND c.seq = 0
		WHERE n.ws = ? AND n.path = ?`, s.ws, []byte(name)).Scan(&n.id, &p, &dir, &n.size, &n.mtime,
		&n.hash, &n.hstate, &n.blob, &first, &kept)
	l := &look{}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		kept = false
	case err != nil:
		return nil, err
	default:
		n.path, n.dir = string(p), dir != 0
		l.n, l.first = &n, first
		kept = kept && !n.dir
	}
	if s.seen != nil {
		s.seen.put(name, l, kept)
	}
	return l, nil
}

// current returns the row of name, about to change in t: locked, on PostgreSQL. In a
// change set on SQLite, whose transaction holds the write lock, the row the change set
// looked at is still current (every change forgets the looks), and no query is needed.
func (s *Store) current(t *txn, name string) (*node, error) {
	if s.seen != nil && t.d.forUpdate == "" {
		if l := s.seen.get(name); l != nil {
			if l.n == nil {
				return nil, nil
			}
			n := *l.n
			return &n, nil
		}
	}
	return s.get(t, name, t.d.forUpdate)
}

// Snapshot implements [store.Snapshotter]: one query for the path's row, which holds a
// file's hash, and its first chunk, which is all the content of a small file (in a change
// set that looked at the path already, none). A name below a file or a missing directory
// is absent, as in the fallback.
func (s *Store) Snapshot(ctx context.Context, name string, max int64) (store.Version, []byte, error) {
	if !fs.ValidPath(name) {
		return store.Version{}, nil, pathErr("snapshot", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	l, err := s.look(t, name)
	n := (*node)(nil)
	if l != nil {
		n = l.n
	}
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
	var data []byte
	if n.size <= ChunkSize && int64(len(l.first)) >= n.size {
		data = bytes.Clone(l.first[:n.size:n.size])
		if data == nil {
			data = []byte{}
		}
	} else if data, err = s.content(t, n); err != nil {
		// Replaced since the look (on PostgreSQL, by another writer): the caller looks
		// again, at the row.
		s.seen.forget()
		return store.Version{}, nil, pathErr("snapshot", name, err)
	}
	if n.size > max {
		v.Hash = store.Hash(data)
		return v, nil, nil
	}
	if v.Hash == "" {
		v = store.FileVersion(data)
	}
	return v, data, nil
}

// content reads all of file n's content, in one query.
func (s *Store) content(t *txn, n *node) ([]byte, error) {
	data := make([]byte, 0, n.size)
	if n.blob == 0 {
		k, err := kept(t, n)
		return append(data, k...), err
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
	if err := shareBlobs(t); err != nil {
		return err
	}
	if err := insertBlobs(t, blobs, nil); err != nil {
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
// (before and after), and each statement is a round through the database. hashes, when not
// nil, holds each blob's [store.Hash], which the caller has computed already.
func insertBlobs(t *txn, blobs [][]byte, hashes []string) error {
	const most = 64 // rows per statement, far below either database's bound on parameters
	for len(blobs) > most {
		var first []string
		if hashes != nil {
			first, hashes = hashes[:most], hashes[most:]
		}
		if err := insertBlobs(t, blobs[:most], first); err != nil {
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
			if err := insertParted(t, h, b); err != nil {
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
	q.WriteString(` ON CONFLICT (hash) DO NOTHING`)
	_, err := t.exec(q.String(), args...)
	return err
}

// blobsLock is the key of the PostgreSQL advisory lock that keeps the deletion of
// unreferenced journal blobs apart from change sets. Content is shared by every workspace of
// the database, and a change set offering a blob that is kept already inserts nothing and
// locks nothing: a deletion beside it, which cannot see the change set's uncommitted rows,
// would take the blob from under the change it records. So each change set holds the lock
// shared (shareBlobs) from its first entry to its commit, and a deletion holds it alone.
// SQLite's writers are serialized, which does the same.
const blobsLock = 7460504641626815334

// shareBlobs takes the blobs lock shared for the rest of t, on PostgreSQL, once: a change
// set of many entries adds them one at a time.
func shareBlobs(t *txn) error {
	if t.d.name != Postgres || t.blobsShared {
		return nil
	}
	if _, err := t.exec(`SELECT pg_advisory_xact_lock_shared(?)`, int64(blobsLock)); err != nil {
		return err
	}
	t.blobsShared = true
	return nil
}

// dropUnreferenced deletes, in a transaction of its own, the journal's blobs that no change
// of any workspace refers to, nor a file (see writeKept: SQLite alone has such files, and its
// writers are serialized), and the parts of blobs gone. On PostgreSQL it waits until no
// change set is under way (see blobsLock), so every change it sees is committed.
func (x *DB) dropUnreferenced(ctx context.Context) error {
	return x.write(ctx, true, func(t *txn) error {
		if t.d.name == Postgres {
			if _, err := t.exec(`SELECT pg_advisory_xact_lock(?)`, int64(blobsLock)); err != nil {
				return err
			}
		}
		if _, err := t.exec(`DELETE FROM llmfs_jblobs WHERE hash NOT IN (SELECT b_hash FROM llmfs_journal)
			AND hash NOT IN (SELECT a_hash FROM llmfs_journal)
			AND hash NOT IN (SELECT hash FROM llmfs_nodes WHERE blob = 0 AND dir = 0)`); err != nil {
			return err
		}
		_, err := t.exec(`DELETE FROM llmfs_jparts WHERE NOT EXISTS
			(SELECT 1 FROM llmfs_jblobs j WHERE j.hash = llmfs_jparts.hash)`)
		return err
	})
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
	if f.States != nil && !slices.Contains(f.States, store.Committed) {
		q += ` AND state <> 'committed'` // the condition of the index llmfs_journal_pending
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
	var size int64
	t := &txn{ctx: ctx, q: l.x.db, d: l.x.d}
	err := t.queryRow(`SELECT size, data FROM llmfs_jblobs WHERE hash = ?`, h).Scan(&size, &b)
	if errors.Is(err, sql.ErrNoRows) {
		err = fs.ErrNotExist
	}
	if err == nil && isParted(size, b) {
		if b, err = t.parts(h, size); err != nil {
			// A prune between the two queries deleted the blob: it is gone, not damaged.
			var n int64
			if t.queryRow(`SELECT COUNT(*) FROM llmfs_jblobs WHERE hash = ?`, h).Scan(&n) == nil && n == 0 {
				err = fs.ErrNotExist
			}
		}
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
		res, err := t.exec(`DELETE FROM llmfs_journal WHERE ws = ? AND (id <= ? OR cset = ?)`, l.ws, cut, set)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		if _, err := t.exec(`DELETE FROM llmfs_checkpoints WHERE ws = ? AND id < ?`, l.ws, last); err != nil {
			return err
		}
		_, err = l.recount(t)
		return err
	})
	if err != nil {
		return 0, err
	}
	return int(n), l.x.dropUnreferenced(ctx)
}
