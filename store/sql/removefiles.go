package sqlstore

import (
	"context"
	"io/fs"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// removeFilesChunk bounds the names of one statement: SQLite takes at most 32,766
// parameters, PostgreSQL 65,535; a smaller batch keeps each statement's plan small.
const removeFilesChunk = 256

// RemoveFiles removes the files (and symbolic links) names in one transaction, with a
// statement per batch of names where [Store.Remove] makes four per file: applying 1,000
// pending changes removed their 2,000 upper files (the changes and their merge bases) one
// at a time, a fifth of the apply's CPU (issue 40.4). A name that does not exist is
// skipped; a directory is [store.ErrIsDir] and nothing is removed. The rows are locked in
// path order, as every writer locks them. Within a change set of the store's journal it
// runs in the set's transaction, as Remove does.
func (s *Store) RemoveFiles(ctx context.Context, names []string) error {
	for _, name := range names {
		if !fs.ValidPath(name) || name == "." {
			return pathErr("remove", name, store.ErrInvalidName)
		}
	}
	return s.change(ctx, true, func(t *txn) error {
		var bytes, files int64
		for len(names) > 0 {
			chunk := names[:min(len(names), removeFilesChunk)]
			names = names[len(chunk):]
			b, n, err := s.removeFiles(t, chunk)
			if err != nil {
				return err
			}
			bytes, files = bytes+b, files+n
		}
		if files == 0 {
			return nil
		}
		return s.account(t, -bytes, -files, 0)
	})
}

// removeFiles removes the files of one batch of names, and returns their bytes and count.
func (s *Store) removeFiles(t *txn, names []string) (bytes, files int64, err error) {
	rows, err := s.lockRows(t, t.d.forUpdate, names...)
	if err != nil {
		return 0, 0, err
	}
	ids := make([]any, 0, len(rows))
	var blobs []any
	for _, name := range names {
		n := rows[name]
		if n == nil {
			continue
		}
		if n.dir {
			return 0, 0, pathErr("remove", name, store.ErrIsDir)
		}
		delete(rows, name) // a name given twice goes once
		ids = append(ids, n.id)
		if n.blob != 0 {
			blobs = append(blobs, n.blob)
		}
		bytes += n.size
		files++
	}
	if len(ids) == 0 {
		return 0, 0, nil
	}
	q := `DELETE FROM llmfs_nodes WHERE id IN (?` + strings.Repeat(", ?", len(ids)-1) + `)`
	if _, err := t.exec(q, ids...); err != nil {
		return 0, 0, err
	}
	if len(blobs) > 0 {
		// dropChunksSQL for every content id at once; the blob <> 0 term lets the
		// partial index llmfs_nodes_blob answer the NOT EXISTS (see dropChunksSQL).
		q := `DELETE FROM llmfs_chunks WHERE blob IN (?` + strings.Repeat(", ?", len(blobs)-1) + `)
			AND NOT EXISTS (SELECT 1 FROM llmfs_nodes n WHERE n.blob = llmfs_chunks.blob AND n.blob <> 0)`
		if _, err := t.exec(q, blobs...); err != nil {
			return 0, 0, err
		}
	}
	return bytes, files, nil
}
