package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Reading the journal: its changes, blobs, checkpoints and feed.

const changeCols = `id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state, added, removed`

func scanChange(sc interface{ Scan(...any) error }) (store.Change, error) {
	var c store.Change
	var tm int64
	var p, o []byte
	var bk, ak, st string
	var added, removed int64
	err := sc.Scan(&c.ID, &c.Set, &tm, &c.Actor, &c.Op, &p, &o, &bk, &c.Before.Hash, &c.Before.Size,
		&ak, &c.After.Hash, &c.After.Size, &st, &added, &removed)
	c.Lines = linesOf(added, removed)
	c.Time = time.Unix(0, tm)
	c.Path, c.Other = string(p), string(o)
	c.Before.Kind, c.After.Kind, c.State = store.Kind(bk), store.Kind(ak), store.State(st)
	return c, err
}

// Changes implements [store.Journal].
func (l *jlog) Changes(ctx context.Context, f store.ChangeFilter) ([]store.Change, error) {
	q, args := changesQuery(l.x.d.name, l.ws, f)
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

// changesQuery is the query of the changes of workspace ws that f selects, newest first:
// a range scan of the primary key (ws, id) downwards, which stops after f.Limit rows, so
// that the newest few changes cost the same however long the journal is (issue 40.3;
// TestChangesQueryPlan). A change set's changes have IDs from the set's own (its first
// change's) up, which bounds the scan of a set. The changes not committed (a host
// directory's journal settles them at every open) are read from their partial index.
func changesQuery(d Dialect, ws int64, f store.ChangeFilter) (string, []any) {
	uncommitted := f.States != nil && !slices.Contains(f.States, store.Committed)
	q := `SELECT ` + changeCols + ` FROM llmfs_journal`
	if uncommitted && d == SQLite {
		// Without statistics SQLite walks the primary key for the order, reading every
		// change; the index holds the few pending ones.
		q += ` INDEXED BY llmfs_journal_pending`
	}
	q += ` WHERE ws = ?`
	args := []any{ws}
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
		q += ` AND cset = ? AND id >= ?`
		args = append(args, f.Set, f.Set)
	}
	if uncommitted {
		q += ` AND state <> 'committed'` // the condition of the index llmfs_journal_pending
	}
	q += ` ORDER BY id DESC`
	if f.Limit > 0 && f.States == nil {
		// The query selects exactly what f.Match does (f.States only roughly).
		q += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	return q, args
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
		if b, err = t.parts(l.x, h, size); err != nil {
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

// linesOf is the count the columns added and removed hold; -1 in either: not counted.
func linesOf(added, removed int64) store.Lines {
	if added < 0 || removed < 0 {
		return store.Lines{}
	}
	return store.Lines{Added: int(added), Removed: int(removed), Counted: true}
}

// lineCols is the pair of values to write in the columns added and removed.
func lineCols(l store.Lines) (added, removed int64) {
	if !l.Counted {
		return -1, -1
	}
	return int64(l.Added), int64(l.Removed)
}
