package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/llmfs/llmfs/store/blob"
)

// DefaultGrace is how old an object must be before [DB.CollectGarbage] may delete it by
// default: longer than any write in flight.
const DefaultGrace = time.Hour

// GCStats tells what a garbage collection did.
type GCStats struct {
	Objects int   // objects in the object store
	Old     int   // of them, older than the grace period
	Deleted int   // of them, deleted: nothing referred to them
	Bytes   int64 // the size of the objects deleted
}

// CollectGarbage deletes the objects of the object store ([DB.SetBlobs]) that no chunk of
// any workspace refers to and that are older than grace. It takes no global lock: each
// object is decided in a transaction of its own that locks the object's row (see
// objects.go), so writes, forks and undo go on meanwhile and never lose an object they
// refer to. Without an object store it does nothing.
func (x *DB) CollectGarbage(ctx context.Context, grace time.Duration) (GCStats, error) {
	var st GCStats
	if x.objects == nil {
		return st, nil
	}
	cutoff := time.Now().Add(-grace)
	var old []blob.Object
	err := x.objects.List(ctx, blob.ChunkPrefix, func(o blob.Object) error {
		st.Objects++
		if o.Modified.Before(cutoff) && blob.SumOf(o.Key) != "" {
			old = append(old, o)
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	st.Old = len(old)
	for _, o := range old {
		deleted, err := x.collect(ctx, blob.SumOf(o.Key), cutoff)
		if err != nil {
			return st, err
		}
		if deleted {
			st.Deleted++
			st.Bytes += o.Size
		}
	}
	return st, nil
}

// collect deletes the object of chunk sum unless something refers to it or a writer has
// upserted its row since cutoff, and reports whether it did.
func (x *DB) collect(ctx context.Context, sum string, cutoff time.Time) (bool, error) {
	var deleted bool
	err := x.write(ctx, true, func(t *txn) error {
		deleted = false
		// The row, made if missing (an object whose writer never committed has none): a
		// writer's row not committed yet has this wait for it.
		if _, err := t.exec(`INSERT INTO llmfs_objects (hash, seen) VALUES (?, 0) ON CONFLICT (hash) DO NOTHING`, sum); err != nil {
			return err
		}
		var seen int64
		if err := t.queryRow(`SELECT seen FROM llmfs_objects WHERE hash = ?`+t.d.forUpdate, sum).Scan(&seen); err != nil {
			return err
		}
		if seen >= cutoff.UnixNano() {
			return nil // a writer used it lately
		}
		// A statement of its own, after the lock: it sees what the writers that held the
		// row committed.
		var one int
		err := t.queryRow(`SELECT 1 FROM llmfs_chunks WHERE ref = ?
			UNION ALL SELECT 1 FROM llmfs_jparts WHERE ref = ? LIMIT 1`, sum, sum).Scan(&one)
		if err == nil {
			return nil // referred to
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := x.objects.Delete(ctx, blob.ChunkKey(sum)); err != nil {
			return err
		}
		if _, err := t.exec(`DELETE FROM llmfs_objects WHERE hash = ?`, sum); err != nil {
			return err
		}
		deleted = true
		return nil
	})
	return deleted, err
}
