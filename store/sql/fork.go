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
// A fork copies rows, not content: each file of dst refers to the same content as its
// source (as the history's content is shared, kept by hash once per database). A write to
// a file in either workspace gives that file content of its own, and content is deleted
// only when no file of any workspace refers to it (see the package doc). So a fork costs
// time in proportion to the workspace's files and directories, whatever their size in
// bytes.
func (x *DB) Fork(ctx context.Context, src, dst string) error {
	if err := CheckID(src); err != nil {
		return err
	}
	if err := CheckID(dst); err != nil {
		return err
	}
	return x.write(ctx, true, func(t *txn) error {
		// Every writer locks the rows of its files and then the workspace's row (to count
		// its usage, to number its journal entries): the fork takes them in the same order,
		// or it and a writer would each wait for the other (a deadlock, 40P01).
		var sid int64
		err := t.queryRow(`SELECT id FROM llmfs_workspaces WHERE name = ?`, src).Scan(&sid)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("fork", src, fs.ErrNotExist)
		}
		if err != nil {
			return wsErr("fork", src, err)
		}
		var did int64
		err = t.queryRow(`INSERT INTO llmfs_workspaces (name, created, max_bytes, max_files, max_file_bytes, used_bytes, used_files, journal_seq, journal_bytes)
			SELECT ?, ?, max_bytes, max_files, max_file_bytes, 0, 0, 0, 0 FROM llmfs_workspaces WHERE id = ?
			ON CONFLICT (name) DO NOTHING RETURNING id`, dst, time.Now().UnixNano(), sid).Scan(&did)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("fork", dst, fs.ErrExist)
		}
		if err != nil {
			return wsErr("fork", dst, err)
		}
		// On PostgreSQL the rows copied are locked as copied (a row a writer changed
		// meanwhile is copied as it committed it), so none of their content is released
		// (dropChunks) before the fork's references to it commit.
		if _, err := t.exec(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob, mode, target)
			SELECT ?, path, parent, name, dir, size, mtime, hash, hstate, blob, mode, target FROM llmfs_nodes WHERE ws = ?`+t.d.forShare, did, sid); err != nil {
			return wsErr("fork", dst, err)
		}
		// The usage is counted from the rows copied (files created since the copy began
		// are not in the fork), the journal's counters read under the row's lock that
		// numbering entries takes, so they match the entries copied next.
		var seq, jbytes int64
		err = t.queryRow(`SELECT journal_seq, journal_bytes FROM llmfs_workspaces WHERE id = ?`+t.d.forUpdate, sid).Scan(&seq, &jbytes)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("fork", src, fs.ErrNotExist)
		}
		if err != nil {
			return wsErr("fork", src, err)
		}
		if _, err := t.exec(`UPDATE llmfs_workspaces SET journal_seq = ?, journal_bytes = ?,
			used_bytes = (SELECT COALESCE(SUM(size), 0) FROM llmfs_nodes WHERE ws = ?),
			used_files = (SELECT COUNT(*) FROM llmfs_nodes WHERE ws = ? AND path <> ?) WHERE id = ?`,
			seq, jbytes, did, did, []byte("."), did); err != nil {
			return wsErr("fork", dst, err)
		}
		for _, q := range []string{
			`INSERT INTO llmfs_meta (ws, key, value) SELECT ?, key, value FROM llmfs_meta WHERE ws = ?`,
			`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state, added, removed)
				SELECT ?, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state, added, removed FROM llmfs_journal WHERE ws = ?`,
			`INSERT INTO llmfs_checkpoints (ws, name, id, time) SELECT ?, name, id, time FROM llmfs_checkpoints WHERE ws = ?`,
		} {
			if _, err := t.exec(q, did, sid); err != nil {
				return wsErr("fork", dst, err)
			}
		}
		return nil
	})
}
