package sqlstore

import (
	"errors"
	"path"

	"github.com/llmfs/llmfs/store/sql/internal/pgcopy"
)

// COPY (issue 38). A multi-row INSERT of a queue's nodes or chunks made PostgreSQL parse
// and plan a statement of up to 4,096 parameters per queue: a fifth of the server's CPU in
// an import of the Go tree went to planning them (GetCachedPlan copying the VALUES lists),
// and the client's encoding of their Bind messages, grown by appends, was a quarter of its
// own. A batch copies its rows with the driver's binary COPY instead, in the same
// transaction: what commits is the same.
//
// COPY has no ON CONFLICT. A chunk's key is new (its content id is), so chunks are copied
// as they are; the nodes, whose names may be taken (a file replaced, a directory there
// already, another writer's new file), go by one INSERT ... SELECT FROM unnest(arrays)
// ... ON CONFLICT DO NOTHING (unnestNodes).

var errNoCopy = errors.New("sqlstore: no COPY on this connection")

var chunkColumns = []string{"blob", "seq", "data", "ref"}

// copyRows copies rows into the columns of table in the batch's transaction, or returns
// errNoCopy when the connection cannot (SQLite, or no COPY registered).
func (b *Batch) copyRows(table string, columns []string, rows [][]any) error {
	from := pgcopy.From()
	if from == nil || b.t.conn == nil {
		return errNoCopy
	}
	return b.t.conn.Raw(func(dc any) error {
		_, err := from(b.ctx, dc, table, columns, rows)
		return err
	})
}

// unnestNodes inserts the rows of entries that find no row at their names, and returns the
// names inserted, in one statement of ten parameters: each column's values go as one array, which
// PostgreSQL unnests. The statement is the same for any number of rows, so the server
// plans it once per connection, and ON CONFLICT finds the names taken without a savepoint
// (a COPY under one would give each queue a subtransaction, and past 64 of them in one
// transaction PostgreSQL's snapshots of every session slow down).
func (b *Batch) unnestNodes(entries []queued) (map[string]bool, error) {
	n := len(entries)
	paths, parents, names, states := make([][]byte, n), make([][]byte, n), make([][]byte, n), make([][]byte, n)
	dirs, sizes, mtimes, blobs := make([]int16, n), make([]int64, n), make([]int64, n), make([]int64, n)
	sums := make([]string, n)
	for i, e := range entries {
		paths[i], parents[i], names[i] = []byte(e.name), []byte(parentOf(e.name)), []byte(path.Base(e.name))
		if e.dir {
			dirs[i] = 1
		}
		sizes[i], mtimes[i], sums[i], states[i], blobs[i] = int64(len(e.content)), e.mtime, e.sum, e.state, e.blob
	}
	st, err := b.stmt(unnestInsertNodes)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(b.ctx, b.s.ws, paths, parents, names, dirs, sizes, mtimes, sums, states, blobs)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	inserted := make(map[string]bool, n)
	for rows.Next() {
		var p []byte
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		inserted[string(p)] = true
	}
	return inserted, rows.Err()
}

const unnestInsertNodes = `INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob)
	SELECT $1, u.path, u.parent, u.name, u.dir, u.size, u.mtime, u.hash, u.hstate, u.blob
	FROM unnest($2::bytea[], $3::bytea[], $4::bytea[], $5::smallint[], $6::bigint[], $7::bigint[],
		$8::text[], $9::bytea[], $10::bigint[]) AS u(path, parent, name, dir, size, mtime, hash, hstate, blob)
	ON CONFLICT (ws, path) DO NOTHING RETURNING path`

// copyChunks copies the chunk rows of the files of entries inserted (see insertChunks), or
// returns errNoCopy.
func (b *Batch) copyChunks(entries []queued, inserted map[string]bool) error {
	if pgcopy.From() == nil || b.t.conn == nil {
		return errNoCopy
	}
	var rows [][]any
	eachChunk(entries, inserted, func(blob, seq int64, data []byte, ref any) error {
		rows = append(rows, []any{blob, seq, data, ref})
		return nil
	})
	if len(rows) == 0 {
		return nil
	}
	return b.copyRows("llmfs_chunks", chunkColumns, rows)
}
