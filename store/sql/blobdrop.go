package sqlstore

import (
	"context"
	"slices"
	"strings"
)

// Journal content (llmfs_jblobs) is shared by every workspace of the database, so it goes
// only when no change of any workspace refers to it, nor a file (see writeKept: SQLite alone
// has such files, and its writers are serialized). There is no global lock between the
// change sets that refer to content and the deletion of content nothing refers to, which
// would serialize every writer of a distributed database (issue 38); the row of each blob is
// the lock. A change set that offers a blob kept already inserts nothing, so on PostgreSQL it
// first locks the blob's row shared (shareBlobs) until it commits; a deletion locks the row
// of each candidate for update first (waiting for those change sets), and only then, in a
// statement of its own that sees what they committed, deletes it if nothing refers to it.
// A blob that a deletion removed before the change set came is not there to lock, and the
// change set inserts it again.

// shareBlobs locks shared, until t ends, the rows of the blobs already kept among those
// about to be inserted (args holds hash, size, data for each), on PostgreSQL.
func shareBlobs(t *txn, args []any) error {
	if t.d.name != Postgres {
		return nil
	}
	hashes := make([]any, 0, len(args)/3)
	for i := 0; i < len(args); i += 3 {
		hashes = append(hashes, args[i])
	}
	_, err := t.exec(`SELECT hash FROM llmfs_jblobs WHERE hash IN (`+placeholders(len(hashes))+`) FOR SHARE`, hashes...)
	return err
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// dropUnreferenced deletes those of the journal blobs with the given hashes (the content of
// changes just pruned or removed) that nothing refers to any more, and their parts. It
// looks at these candidates only, a few at a time, each batch in a transaction of its own:
// never a sweep of the whole database.
func (x *DB) dropUnreferenced(ctx context.Context, hashes []string) error {
	slices.Sort(hashes) // rows locked in one order by every deletion: no deadlock between two
	hashes = slices.Compact(hashes)
	hashes = slices.DeleteFunc(hashes, func(h string) bool { return h == "" })
	const batch = 64
	for len(hashes) > 0 {
		n := min(batch, len(hashes))
		some := hashes[:n]
		hashes = hashes[n:]
		if err := x.write(ctx, true, func(t *txn) error { return dropBlobs(t, some) }); err != nil {
			return err
		}
	}
	return nil
}

// dropBlobs deletes the blobs with hashes that nothing refers to, in t.
func dropBlobs(t *txn, hashes []string) error {
	if t.d.name == Postgres {
		args := make([]any, len(hashes))
		for i, h := range hashes {
			args[i] = h
		}
		// Waits for the change sets that locked these rows shared (shareBlobs).
		if _, err := t.exec(`SELECT hash FROM llmfs_jblobs WHERE hash IN (`+placeholders(len(args))+`) ORDER BY hash FOR UPDATE`, args...); err != nil {
			return err
		}
	}
	for _, h := range hashes {
		// The journal's references are found by the prefix of the hash its indexes
		// take (migration 14), then the whole hash.
		p := refKey(h)
		res, err := t.exec(`DELETE FROM llmfs_jblobs WHERE hash = ?
			AND NOT EXISTS (SELECT 1 FROM llmfs_journal WHERE substr(b_hash, 1, 12) = ? AND b_hash = ?)
			AND NOT EXISTS (SELECT 1 FROM llmfs_journal WHERE substr(a_hash, 1, 12) = ? AND a_hash = ?)
			AND NOT EXISTS (SELECT 1 FROM llmfs_nodes WHERE hash = ? AND blob = 0 AND dir = 0)`, h, p, h, p, h, h)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err != nil {
				return err
			}
			continue
		}
		if _, err := t.exec(`DELETE FROM llmfs_jparts WHERE hash = ?`, h); err != nil {
			return err
		}
	}
	return nil
}

// journalHashes returns the hashes of the content workspace ws's journal refers to, and of
// its files' content the journal's blobs keep (writeKept).
func journalHashes(t *txn, ws int64) ([]string, error) {
	rows, err := t.query(`SELECT b_hash FROM llmfs_journal WHERE ws = ? AND b_kind = 'file'
		UNION SELECT a_hash FROM llmfs_journal WHERE ws = ? AND a_kind = 'file'
		UNION SELECT hash FROM llmfs_nodes WHERE ws = ? AND blob = 0 AND dir = 0`, ws, ws, ws)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}
