package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Folding. A host directory records a change first in an append-only intent log beside its
// sidecar database (one write per change, see package store/osdir), which numbers the
// change, and folds many records into the [Log] at once: one transaction for a batch, rather
// than one per change. The rows are the ones [Log.Add] writes.

// A Fold is a batch of changes recorded elsewhere first, already numbered; it is the
// [store.JournalFold] a host directory's journal folds (see [store.JournalDB]).
type Fold = store.JournalFold

// Fold writes the batch in one transaction, and raises the workspace's journal sequence to
// the batch's highest ID, so that [Log.Seq] stays at or above every ID the log holds.
func (l *Log) Fold(ctx context.Context, f Fold) error {
	if len(f.Changes) == 0 && len(f.Blobs) == 0 && len(f.States) == 0 && len(f.Drops) == 0 {
		return nil
	}
	err := l.x.write(ctx, true, func(t *txn) error {
		if err := insertBlobs(l.x, t, f.Blobs, f.Hashes); err != nil {
			return err
		}
		var top, size int64
		for _, c := range f.Changes {
			top = max(top, c.ID)
			size += fileSize(c.Before) + fileSize(c.After)
		}
		if err := foldChanges(t, l.ws, f.Changes); err != nil {
			return err
		}
		for id, st := range f.States {
			if _, err := t.exec(`UPDATE llmfs_journal SET state = ? WHERE ws = ? AND id = ?`, string(st), l.ws, id); err != nil {
				return err
			}
		}
		for _, id := range f.Drops {
			if _, err := t.exec(`DELETE FROM llmfs_journal WHERE ws = ? AND id = ?`, l.ws, id); err != nil {
				return err
			}
		}
		if top == 0 {
			return nil
		}
		// journal_bytes bounds the journal's content from above (see jlog.within): a batch
		// folded again after a crash counts twice, which keeps it a bound.
		_, err := t.exec(`UPDATE llmfs_workspaces SET journal_seq = CASE WHEN journal_seq < ? THEN ? ELSE journal_seq END,
			journal_bytes = journal_bytes + ? WHERE id = ?`,
			top, top, size, l.ws)
		return err
	})
	if err == nil {
		l.Notify()
	}
	return err
}

// foldChanges inserts changes, many rows per statement: a statement's run costs about as
// much again as the row it inserts. Chunks are powers of two, so that a few statement
// texts serve every batch (each is prepared once).
func foldChanges(t *txn, ws int64, changes []*store.Change) error {
	const most = 32 // rows per statement: 544 parameters, below either database's bound
	for len(changes) > 0 {
		n := most
		for n > len(changes) {
			n /= 2
		}
		var q strings.Builder
		q.WriteString(`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other,
			b_kind, b_hash, b_size, a_kind, a_hash, a_size, state, added, removed) VALUES `)
		args := make([]any, 0, 17*n)
		for i, c := range changes[:n] {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			added, removed := lineCols(c.Lines)
			args = append(args, ws, c.ID, c.Set, c.Time.UnixNano(), c.Actor, c.Op, []byte(c.Path), []byte(c.Other),
				string(kindOf(c.Before)), c.Before.Hash, c.Before.Size, string(kindOf(c.After)), c.After.Hash, c.After.Size,
				string(c.State), added, removed)
		}
		q.WriteString(` ON CONFLICT (ws, id) DO UPDATE SET state = excluded.state`)
		if _, err := t.exec(q.String(), args...); err != nil {
			return err
		}
		changes = changes[n:]
	}
	return nil
}

// Seq returns the highest ID the log has given out or been folded: a change recorded
// elsewhere first must be numbered above it.
func (l *Log) Seq(ctx context.Context) (int64, error) {
	var seq, top int64
	t := &txn{ctx: ctx, q: l.x.db, d: l.x.d}
	if err := t.queryRow(`SELECT journal_seq FROM llmfs_workspaces WHERE id = ?`, l.ws).Scan(&seq); err != nil {
		return 0, err
	}
	if err := t.queryRow(`SELECT COALESCE(MAX(id), 0) FROM llmfs_journal WHERE ws = ?`, l.ws).Scan(&top); err != nil {
		return 0, err
	}
	return max(seq, top), nil
}

// Notifier returns what wakes this process's waiters on the log ([store.WaitFor]).
func (l *Log) Notifier() *store.Notifier { return l.notifier() }

// Oldest returns the time of the log's first change (the lowest ID), or the zero time
// for an empty log: one step down the primary key, where MIN(time) reads every row. A host
// directory checks its retention with it before pruning.
func (l *Log) Oldest(ctx context.Context) (time.Time, error) {
	var tm int64
	t := &txn{ctx: ctx, q: l.x.db, d: l.x.d}
	err := t.queryRow(`SELECT time FROM llmfs_journal WHERE ws = ? ORDER BY id LIMIT 1`, l.ws).Scan(&tm)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(0, tm), nil
}
