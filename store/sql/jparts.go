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
func insertParted(t *txn, h string, b []byte) error {
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
	for seq := 0; seq*blobPart < len(b); seq++ {
		part := b[seq*blobPart : min(len(b), (seq+1)*blobPart)]
		if _, err := t.exec(`INSERT INTO llmfs_jparts (hash, seq, data) VALUES (?, ?, ?)`, h, int64(seq), part); err != nil {
			return err
		}
	}
	return nil
}

// parts reads the content of the parted blob h of size bytes.
func (t *txn) parts(h string, size int64) ([]byte, error) {
	rows, err := t.query(`SELECT data FROM llmfs_jparts WHERE hash = ? ORDER BY seq`, h)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	data := make([]byte, 0, size)
	for rows.Next() {
		var part sql.RawBytes // appended before the next row
		if err := rows.Scan(&part); err != nil {
			return nil, err
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
