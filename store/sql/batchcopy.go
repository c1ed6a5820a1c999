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
// as they are; the nodes are copied under a savepoint, and when a name is taken (a file
// replaced, a directory there already, another writer's new file) the savepoint is rolled
// back and the queue's nodes go by INSERT ... ON CONFLICT DO NOTHING as before.

var errNoCopy = errors.New("sqlstore: no COPY on this connection")

var (
	nodeColumns  = []string{"ws", "path", "parent", "name", "dir", "size", "mtime", "hash", "hstate", "blob"}
	chunkColumns = []string{"blob", "seq", "data", "ref"}
)

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

// copyNodes copies the rows of entries into llmfs_nodes and returns their names, or
// returns nil and no error when a name was taken (nothing then is copied), or errNoCopy.
func (b *Batch) copyNodes(entries []queued) (map[string]bool, error) {
	if pgcopy.From() == nil || b.t.conn == nil {
		return nil, errNoCopy
	}
	rows := make([][]any, len(entries))
	for i, e := range entries {
		dir, size := 0, int64(len(e.content))
		if e.dir {
			dir = 1
		}
		var state any
		if e.state != nil {
			state = e.state
		}
		rows[i] = []any{b.s.ws, []byte(e.name), []byte(parentOf(e.name)), []byte(path.Base(e.name)),
			dir, size, e.mtime, e.sum, state, e.blob}
	}
	if _, err := b.t.q.ExecContext(b.ctx, `SAVEPOINT llmfs_copy`); err != nil {
		return nil, err
	}
	err := b.copyRows("llmfs_nodes", nodeColumns, rows)
	if isUniqueViolation(err) {
		_, err := b.t.q.ExecContext(b.ctx, `ROLLBACK TO SAVEPOINT llmfs_copy`)
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	if _, err := b.t.q.ExecContext(b.ctx, `RELEASE SAVEPOINT llmfs_copy`); err != nil {
		return nil, err
	}
	inserted := make(map[string]bool, len(entries))
	for _, e := range entries {
		inserted[e.name] = true
	}
	return inserted, nil
}

// copyChunks copies the chunk rows of the files of entries inserted (see insertChunks), or
// returns errNoCopy.
func (b *Batch) copyChunks(entries []queued, inserted map[string]bool) error {
	if pgcopy.From() == nil || b.t.conn == nil {
		return errNoCopy
	}
	var rows [][]any
	for _, e := range entries {
		if e.dir || !inserted[e.name] {
			continue
		}
		for seq, off := int64(0), 0; off < len(e.content); seq, off = seq+1, off+ChunkSize {
			c := e.content[off:min(off+ChunkSize, len(e.content))]
			var ref any
			if int(seq) < len(e.refs) {
				ref, c = e.refs[seq], []byte{}
			}
			rows = append(rows, []any{e.blob, seq, c, ref})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	return b.copyRows("llmfs_chunks", chunkColumns, rows)
}
