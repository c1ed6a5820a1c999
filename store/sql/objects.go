package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store/blob"
)

// Content in object storage (issue 38). With a [blob.Store] set ([DB.SetBlobs]), every full
// chunk of a file's content ([ChunkSize] bytes) is kept there, once, under the hex SHA-256 of
// its bytes (blob.ChunkKey), and its row in llmfs_chunks holds that hash (ref) and no data.
// A file's last, partial chunk stays in its row, and so does every file smaller than a
// chunk: small files never leave the database, and an append still rewrites only the last
// chunk in place, as a full chunk is never changed. Forks, copies and checkpoints copy rows,
// so they add no object. A chunk read back is checked against its hash.
//
// An object is deleted by [DB.CollectGarbage] only when nothing refers to it. Each object
// has a row in llmfs_objects, which a writer upserts (locking it until its commit) before it
// puts the object; the collector locks the row, then looks for references in a statement
// of its own, then deletes the object while it holds the row: a writer that was about to
// refer to the object waits for it, finds the row gone and puts the object again.

// SetBlobs has the DB keep full chunks of file content in b, or in the database itself when
// b is nil (the default). Set it before the DB is used; every process sharing the database
// must use the same object store.
func (x *DB) SetBlobs(b blob.Store) { x.objects = b }

// Blobs returns the object store set by SetBlobs, or nil.
func (x *DB) Blobs() blob.Store { return x.objects }

// storeChunk returns what the row of a chunk of content holds: the chunk itself (inline), or
// no data and the hash of the chunk, once put in the object store.
func (x *DB) storeChunk(t *txn, data []byte) (inline []byte, ref any, err error) {
	if x.objects == nil || len(data) < ChunkSize {
		return data, nil, nil
	}
	sum := blob.Sum(data)
	if _, err := t.exec(`INSERT INTO llmfs_objects (hash, seen) VALUES (?, ?)
		ON CONFLICT (hash) DO UPDATE SET seen = excluded.seen`, sum, time.Now().UnixNano()); err != nil {
		return nil, nil, err
	}
	if _, err := x.objects.PutIfAbsent(t.ctx, blob.ChunkKey(sum), data); err != nil {
		return nil, nil, fmt.Errorf("keeping a chunk in object storage: %w", err)
	}
	return []byte{}, sum, nil
}

// chunkData returns the content of a chunk whose row holds data and ref: data itself, or
// the object ref names, checked against it.
func (x *DB) chunkData(ctx context.Context, data []byte, ref sql.NullString) ([]byte, error) {
	if !ref.Valid || ref.String == "" {
		return data, nil
	}
	if x.objects == nil {
		return nil, fmt.Errorf("chunk %s is kept in object storage, and no object store is set (--blobs)", ref.String)
	}
	got, err := x.objects.Get(ctx, blob.ChunkKey(ref.String))
	if errors.Is(err, fs.ErrNotExist) {
		// A chunk a file refers to and the object store has lost is an I/O error, not a
		// missing file: the cause is told, not wrapped.
		return nil, fmt.Errorf("chunk %s is missing from object storage: %v", ref.String, err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading a chunk from object storage: %w", err)
	}
	if err := blob.Verify(ref.String, got); err != nil {
		return nil, err
	}
	return got, nil
}

// putChunk writes chunk seq of content id blobID: a new row, or (update) a row there already.
func (x *DB) putChunk(t *txn, blobID, seq int64, data []byte, update bool) error {
	inline, ref, err := x.storeChunk(t, data)
	if err != nil {
		return err
	}
	if update {
		_, err = t.exec(`UPDATE llmfs_chunks SET data = ?, ref = ? WHERE blob = ? AND seq = ?`, inline, ref, blobID, seq)
	} else {
		_, err = t.exec(`INSERT INTO llmfs_chunks (blob, seq, data, ref) VALUES (?, ?, ?, ?)`, blobID, seq, inline, ref)
	}
	return err
}
