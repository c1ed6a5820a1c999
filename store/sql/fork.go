package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"time"
)

// Fork makes workspace dst a copy of workspace src as it is now: its files and
// directories, quota and usage, metadata, and its history (journal and checkpoints), so
// that undo and restore work in the fork as in the original. The two are independent from
// then on. It is one transaction; it fails with an error wrapping [fs.ErrNotExist] if src
// does not exist and [fs.ErrExist] if dst does.
//
// The history's content is shared (it is kept by hash, once per database); file content is
// copied inside the database, one statement per file, so a fork costs time in proportion to
// the workspace's files and bytes, none of which travel to the client.
func (x *DB) Fork(ctx context.Context, src, dst string) error {
	if !validID(src) {
		return wsErr("fork", src, fs.ErrInvalid)
	}
	if !validID(dst) {
		return wsErr("fork", dst, fs.ErrInvalid)
	}
	return x.write(ctx, true, func(t *txn) error {
		var sid int64
		err := t.queryRow(`SELECT id FROM llmfs_workspaces WHERE name = ?`+t.d.forUpdate, src).Scan(&sid)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("fork", src, fs.ErrNotExist)
		}
		if err != nil {
			return wsErr("fork", src, err)
		}
		var did int64
		err = t.queryRow(`INSERT INTO llmfs_workspaces (name, created, max_bytes, max_files, max_file_bytes, used_bytes, used_files, journal_seq)
			SELECT ?, ?, max_bytes, max_files, max_file_bytes, used_bytes, used_files, journal_seq FROM llmfs_workspaces WHERE id = ?
			ON CONFLICT (name) DO NOTHING RETURNING id`, dst, time.Now().UnixNano(), sid).Scan(&did)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("fork", dst, fs.ErrExist)
		}
		if err != nil {
			return wsErr("fork", dst, err)
		}
		for _, q := range []string{
			`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob)
				SELECT ?, path, parent, name, dir, size, mtime, hash, hstate, 0 FROM llmfs_nodes WHERE ws = ? AND dir = 1`,
			`INSERT INTO llmfs_meta (ws, key, value) SELECT ?, key, value FROM llmfs_meta WHERE ws = ?`,
			`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state)
				SELECT ?, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state FROM llmfs_journal WHERE ws = ?`,
			`INSERT INTO llmfs_checkpoints (ws, name, id, time) SELECT ?, name, id, time FROM llmfs_checkpoints WHERE ws = ?`,
		} {
			if _, err := t.exec(q, did, sid); err != nil {
				return wsErr("fork", dst, err)
			}
		}
		rows, err := t.query(`SELECT id, blob FROM llmfs_nodes WHERE ws = ? AND dir = 0`, sid)
		if err != nil {
			return wsErr("fork", src, err)
		}
		type file struct{ id, blob int64 }
		var files []file
		for rows.Next() {
			var f file
			if err := rows.Scan(&f.id, &f.blob); err != nil {
				rows.Close()
				return wsErr("fork", src, err)
			}
			files = append(files, f)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return wsErr("fork", src, err)
		}
		for _, f := range files {
			blob, err := newBlob(t)
			if err != nil {
				return wsErr("fork", dst, err)
			}
			if _, err := t.exec(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob)
				SELECT ?, path, parent, name, dir, size, mtime, hash, hstate, ? FROM llmfs_nodes WHERE id = ?`, did, blob, f.id); err != nil {
				return wsErr("fork", dst, err)
			}
			if f.blob == 0 {
				continue
			}
			if _, err := t.exec(`INSERT INTO llmfs_chunks (blob, seq, data) SELECT ?, seq, data FROM llmfs_chunks WHERE blob = ?`,
				blob, f.blob); err != nil {
				return wsErr("fork", dst, err)
			}
		}
		return nil
	})
}
