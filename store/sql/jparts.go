package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/llmfs/llmfs/store"
)

// A journal blob larger than blobPart is kept in parts of blobPart bytes in llmfs_jparts,
// its llmfs_jblobs row holding its size and no data. SQLite copies a value it is given
// whole, and the record it builds of it, so a 15 MB blob bound in one statement cost two
// more copies of it in the database's own memory, outside Go's: three writers of big
// files at once passed the server's memory budget. In parts, each statement holds one
// part. Content small enough to be a file's own (writeKept, at most a chunk) is never
// parted, so the readers of such content read llmfs_jblobs alone.
const blobPart = 1 << 20

// isParted reports whether a blob row with this size and data keeps its content in parts.
func isParted(size int64, data []byte) bool { return len(data) == 0 && size > 0 }

// insertParted keeps blob b, larger than blobPart, unless a row for its hash is there
// already: its row first (which takes the hash, so a concurrent change set inserting the
// same content waits for this one and then inserts nothing), then its parts.
func insertParted(x *DB, t *txn, h string, b []byte) error {
	if err := shareBlobs(t, []any{h, nil, nil}); err != nil {
		return err
	}
	res, err := t.exec(`INSERT INTO llmfs_jblobs (hash, size, data) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
		h, int64(len(b)), []byte{})
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err
	}
	// With an object store, the parts are chunks of files' size, each full one kept there
	// under its hash: the journal and the files share one content space, so the history
	// of a large file adds no object for content a file has (or had) too.
	size := blobPart
	if x.objects != nil {
		size = ChunkSize
	}
	for seq := 0; seq*size < len(b); seq++ {
		part := b[seq*size : min(len(b), (seq+1)*size)]
		inline, ref, err := x.storeChunk(t, part)
		if err != nil {
			return err
		}
		if _, err := t.exec(`INSERT INTO llmfs_jparts (hash, seq, data, ref) VALUES (?, ?, ?, ?)`, h, int64(seq), inline, ref); err != nil {
			return err
		}
	}
	return nil
}

// parts reads the content of the parted blob h of size bytes.
func (t *txn) parts(x *DB, h string, size int64) ([]byte, error) {
	rows, err := t.query(`SELECT data, ref FROM llmfs_jparts WHERE hash = ? ORDER BY seq`, h)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	data := make([]byte, 0, size)
	for rows.Next() {
		var part sql.RawBytes // appended before the next row
		var ref sql.NullString
		if err := rows.Scan(&part, &ref); err != nil {
			return nil, err
		}
		if ref.Valid {
			obj, err := x.chunkData(t.ctx, nil, ref)
			if err != nil {
				return nil, err
			}
			part = obj
		}
		if int64(len(data)+len(part)) > size {
			break
		}
		data = append(data, part...)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if int64(len(data)) != size || store.Hash(data) != h {
		return nil, fmt.Errorf("journal blob %s: its parts hold %d bytes that do not make the %d-byte content", h, len(data), size)
	}
	return data, nil
}
