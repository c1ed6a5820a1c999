package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync/atomic"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Store is one workspace of a [DB]. It is safe for concurrent use, and several Stores, in
// one process or many, may use the same workspace at once.
type Store struct {
	x     *DB
	ws    int64  // workspace row id
	id    string // workspace id, for messages
	owned bool   // Close closes x
	tx    *txn   // the transaction of a journal's change set, if bound to one (journal.go)
	seen  *seen  // what that transaction has looked at, if bound to one (journal.go)

	chunkReads atomic.Int64 // chunk rows fetched by readers, for tests
}

var (
	_ store.Store  = (*Store)(nil)
	_ store.Copier = (*Store)(nil)

	_ store.ConditionalRemover = (*Store)(nil)
)

// ID returns the workspace id.
func (s *Store) ID() string { return s.id }

// DB returns the database the workspace lives in.
func (s *Store) DB() *DB { return s.x }

// Close closes the database if the store opened it ([OpenDSN]); otherwise it does nothing.
func (s *Store) Close() error {
	if s.owned {
		return s.x.db.Close()
	}
	return nil
}

func pathErr(op, name string, err error) error { return &fs.PathError{Op: op, Path: name, Err: err} }

// A node is one row of llmfs_nodes.
type node struct {
	id     int64
	path   string
	dir    bool
	size   int64
	mtime  int64
	hash   string
	hstate []byte
	blob   int64 // content id: the key of the file's chunks
}

const nodeCols = `id, path, dir, size, mtime, hash, hstate, blob`

func scanNode(sc interface{ Scan(...any) error }) (*node, error) {
	var n node
	var p []byte
	var dir int64
	if err := sc.Scan(&n.id, &p, &dir, &n.size, &n.mtime, &n.hash, &n.hstate, &n.blob); err != nil {
		return nil, err
	}
	n.path, n.dir = string(p), dir != 0
	return &n, nil
}

// info describes n; it also serves as n's directory entry.
func (n *node) info() *store.Entry {
	if n.dir {
		return store.NewDir(path.Base(n.path), time.Unix(0, n.mtime))
	}
	return store.NewFile(path.Base(n.path), n.size, time.Unix(0, n.mtime))
}

// get returns the row for name, or nil if there is none. lock is "", forShare or forUpdate.
func (s *Store) get(t *txn, name string, lock string) (*node, error) {
	n, err := scanNode(t.queryRow(`SELECT `+nodeCols+` FROM llmfs_nodes WHERE ws = ? AND path = ?`+lock,
		s.ws, []byte(name)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return n, err
}

// ancestors returns the directories above name, the root aside, outermost first.
func ancestors(name string) []string {
	var out []string
	for i := range len(name) {
		if name[i] == '/' {
			out = append(out, name[:i])
		}
	}
	return out
}

// checkAncestors verifies that every directory above name exists and is a directory (see
// [walkErr]). With lock set (PostgreSQL) the directories are locked until commit, so no
// rename or removal of one can interleave.
func (s *Store) checkAncestors(t *txn, name string, lock string) error {
	anc := ancestors(name)
	if len(anc) == 0 {
		return nil // the root always exists
	}
	rows, err := s.lockRows(t, lock, anc...)
	if err != nil {
		return err
	}
	return walkErr(rows, name)
}

// lockRows returns the rows of names that exist, locking them with lock ("", forShare or
// forUpdate) in path order. Every writer takes its row locks in path order (an ancestor's
// path sorts before its descendants'), so writers on PostgreSQL wait for each other in one
// direction only, instead of deadlocking.
func (s *Store) lockRows(t *txn, lock string, names ...string) (map[string]*node, error) {
	args := make([]any, 0, len(names)+1)
	args = append(args, s.ws)
	for _, n := range names {
		args = append(args, []byte(n))
	}
	q := `SELECT ` + nodeCols + ` FROM llmfs_nodes WHERE ws = ? AND path IN (?` + strings.Repeat(", ?", len(names)-1) + `)
		ORDER BY path` + lock
	rows, err := t.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	found := make(map[string]*node, len(names))
	for rows.Next() {
		n, err := scanNode(rows)
		if err != nil {
			return nil, err
		}
		found[n.path] = n
	}
	return found, rows.Err()
}

// walkErr returns the error a walk from the root to name would meet first among the
// directories above it, given their rows: [fs.ErrNotExist] for a missing element,
// [store.ErrNotDir] for a file; nil if all are directories.
func walkErr(rows map[string]*node, name string) error {
	for _, a := range ancestors(name) {
		n := rows[a]
		if n == nil {
			return fs.ErrNotExist
		}
		if !n.dir {
			return store.ErrNotDir
		}
	}
	return nil
}

// missing explains why name has no row: a missing or non-directory element above it, or
// else name itself missing.
func (s *Store) missing(t *txn, name string) error {
	if err := s.checkAncestors(t, name, ""); err != nil {
		return err
	}
	return fs.ErrNotExist
}

// read returns a txn whose queries run outside any explicit transaction: each is atomic on
// its own, and none waits for writers.
func (s *Store) read(ctx context.Context) *txn {
	if s.tx != nil {
		return s.tx
	}
	return &txn{ctx: ctx, q: s.x.db, d: s.x.d, x: s.x}
}

// Stat implements [store.Store].
func (s *Store) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr("stat", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	var n *node
	var err error
	if s.seen != nil {
		// In a change set: a write looks at what it replaces next (the journal's snapshot),
		// so this look brings that along.
		var l *look
		if l, err = s.look(t, name); err == nil {
			n = l.n
		}
	} else {
		n, err = s.get(t, name, "")
	}
	if err == nil && n == nil {
		err = s.missing(t, name)
	}
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return n.info(), nil
}

// ReadDir implements [store.Store]. The entries come from one query on the (workspace,
// parent, name) index, in index order. Only an empty result costs a second query, to tell
// an empty directory from a missing one or a file.
func (s *Store) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr("readdir", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	rows, err := t.query(`SELECT name, dir, size, mtime FROM llmfs_nodes WHERE ws = ? AND parent = ? ORDER BY name`,
		s.ws, []byte(name))
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	defer rows.Close()
	out := []fs.DirEntry{}
	for rows.Next() {
		var dir, size, mtime int64
		var base []byte
		if err := rows.Scan(&base, &dir, &size, &mtime); err != nil {
			return nil, pathErr("readdir", name, err)
		}
		n := node{path: string(base), dir: dir != 0, size: size, mtime: mtime}
		out = append(out, n.info())
	}
	if err := rows.Err(); err != nil {
		return nil, pathErr("readdir", name, err)
	}
	if len(out) > 0 {
		return out, nil // only a directory has entries
	}
	n, err := s.get(t, name, "")
	switch {
	case err != nil:
	case n == nil:
		err = s.missing(t, name)
	case !n.dir:
		err = store.ErrNotDir
	}
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	return out, nil
}

// Open implements [store.Store]. The file's metadata and first chunk come from one query;
// further chunks are fetched as reading reaches them. Reads use ctx.
//
// The file reads the content it had when opened. An append made since is not seen; after a
// Replace or Remove of the file, reading a chunk not yet fetched fails with an error wrapping
// [store.ErrChanged] rather than mixing old and new content (unless another file, a copy or
// a fork's, still shares the old content: then that is read to the end). A rename does not
// disturb it.
func (s *Store) Open(ctx context.Context, name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr("open", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	var n node
	var dir int64
	var first []byte
	err := t.queryOne(`SELECT n.blob, n.dir, n.size, n.mtime, n.hash, `+firstChunk+` FROM llmfs_nodes n
		LEFT JOIN llmfs_chunks c ON c.blob = n.blob AND c.seq = 0
		WHERE n.ws = ? AND n.path = ?`, []any{s.ws, []byte(name)}, &n.blob, &dir, &n.size, &n.mtime, &n.hash, &first)
	if errors.Is(err, sql.ErrNoRows) {
		err = s.missing(t, name)
	}
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	n.path, n.dir = name, dir != 0
	if n.dir {
		return nil, pathErr("open", name, store.ErrIsDir)
	}
	f := &file{s: s, ctx: ctx, name: name, blob: n.blob, hash: n.hash, info: n.info(), seq: -1}
	if n.size > 0 {
		if err := f.setChunk(0, first); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// firstChunk is the expression for the first chunk of the content of file n, joined with
// its chunk 0 as c: from llmfs_chunks, or for content the journal's blobs keep (no content
// id, see writeKept), from llmfs_jblobs.
const firstChunk = `COALESCE(c.data, CASE WHEN n.blob = 0 AND n.size > 0 AND n.dir = 0 THEN
		(SELECT j.data FROM llmfs_jblobs j WHERE j.hash = n.hash) END)`

// Mkdir implements [store.Store].
func (s *Store) Mkdir(ctx context.Context, name string) error {
	if !fs.ValidPath(name) {
		return pathErr("mkdir", name, store.ErrInvalidName)
	}
	if name == "." {
		return pathErr("mkdir", name, fs.ErrExist)
	}
	err := s.change(ctx, true, func(t *txn) error {
		if err := s.checkAncestors(t, name, t.d.forShare); err != nil {
			return err
		}
		var id int64
		err := t.queryRow(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash)
			VALUES (?, ?, ?, ?, 1, 0, ?, '') ON CONFLICT (ws, path) DO NOTHING RETURNING id`,
			s.ws, []byte(name), []byte(parentOf(name)), []byte(path.Base(name)), time.Now().UnixNano()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fs.ErrExist
		}
		if err != nil {
			return err
		}
		return s.account(t, 0, 1, 0)
	})
	if err != nil {
		return pathErr("mkdir", name, err)
	}
	return nil
}

// parentOf returns the path of the directory holding name ("." at the top).
func parentOf(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return "."
}

// Remove implements [store.Store].
func (s *Store) Remove(ctx context.Context, name string) error {
	return s.remove(ctx, name, false, "")
}

// RemoveIf implements [store.ConditionalRemover]: the check is on the row the removal
// locks, in the same transaction.
func (s *Store) RemoveIf(ctx context.Context, name, hash string) error {
	return s.remove(ctx, name, true, hash)
}

// remove removes name; if cond, only a file whose content hashes to ifMatch.
func (s *Store) remove(ctx context.Context, name string, cond bool, ifMatch string) error {
	if !fs.ValidPath(name) {
		return pathErr("remove", name, store.ErrInvalidName)
	}
	if name == "." {
		if cond {
			return pathErr("remove", name, store.ErrIsDir)
		}
		return pathErr("remove", name, fs.ErrInvalid)
	}
	err := s.change(ctx, true, func(t *txn) error {
		err := s.checkAncestors(t, name, t.d.forShare)
		if cond && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir)) {
			return store.ErrChanged
		}
		if err != nil {
			return err
		}
		n, err := s.current(t, name)
		if err != nil {
			return err
		}
		if cond {
			switch {
			case n == nil:
				return store.ErrChanged
			case n.dir:
				return store.ErrIsDir
			case n.hash != ifMatch:
				return store.ErrChanged
			}
		}
		if n == nil {
			return fs.ErrNotExist
		}
		if n.dir {
			var one int
			err := t.queryRow(`SELECT 1 FROM llmfs_nodes WHERE ws = ? AND parent = ? LIMIT 1`, s.ws, []byte(name)).Scan(&one)
			if err == nil {
				return store.ErrNotEmpty
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		if err := s.drop(t, n); err != nil {
			return err
		}
		return s.account(t, -n.size, -1, 0)
	})
	if err != nil {
		return pathErr("remove", name, err)
	}
	return nil
}

// drop deletes n, and its chunks unless another file shares them.
func (s *Store) drop(t *txn, n *node) error {
	if _, err := t.exec(`DELETE FROM llmfs_nodes WHERE id = ?`, n.id); err != nil {
		return err
	}
	return dropChunks(t, n.blob)
}

// dropChunks deletes the chunks of content blob, which a file has stopped referring to,
// unless another file (of any workspace: a copy, a fork) still refers to it. Call it after
// the row that referred to it changed.
//
// On PostgreSQL a transaction that adds a reference to existing content locks the row it
// copies the reference from (FOR SHARE), and the row changing here is locked FOR UPDATE:
// so the reference is either committed before this looks, or added after it from the row's
// new content id.
func dropChunks(t *txn, blob int64) error {
	if blob == 0 {
		return nil // a directory
	}
	_, err := t.exec(`DELETE FROM llmfs_chunks WHERE blob = ? AND NOT EXISTS (SELECT 1 FROM llmfs_nodes WHERE blob = ?)`, blob, blob)
	return err
}

// shared reports whether a file other than id refers to content blob.
func shared(t *txn, blob, id int64) (bool, error) {
	var n int64
	err := t.queryRow(`SELECT COUNT(*) FROM llmfs_nodes WHERE blob = ? AND id <> ?`, blob, id).Scan(&n)
	return n > 0, err
}

// newBlob returns a content id never used before. Content ids are not reused, so a reader
// holding an old one finds its chunks gone rather than someone else's.
func newBlob(t *txn) (int64, error) {
	var id int64
	err := t.queryRow(t.d.nextBlob).Scan(&id)
	return id, err
}

// Rename implements [store.Store]. A directory's whole subtree moves with one UPDATE.
func (s *Store) Rename(ctx context.Context, oldname, newname string) error {
	if !fs.ValidPath(oldname) {
		return pathErr("rename", oldname, store.ErrInvalidName)
	}
	if !fs.ValidPath(newname) {
		return pathErr("rename", newname, store.ErrInvalidName)
	}
	if oldname == "." || newname == "." {
		return pathErr("rename", oldname, fs.ErrInvalid)
	}
	var errName string // which name the error is about
	err := s.change(ctx, true, func(t *txn) error {
		// Lock both parents' chains and oldname at once, in path order. Ancestors get the
		// stronger lock too: a rename is rare and short, and one statement keeps the order.
		errName = oldname
		rows, err := s.lockRows(t, t.d.forUpdate, append(append(ancestors(oldname), oldname), ancestors(newname)...)...)
		if err != nil {
			return err
		}
		if err := walkErr(rows, oldname); err != nil {
			return err
		}
		n := rows[oldname]
		if n == nil {
			return fs.ErrNotExist
		}
		errName = newname
		if n.dir && (newname == oldname || strings.HasPrefix(newname, oldname+"/")) {
			return fs.ErrInvalid
		}
		if err := walkErr(rows, newname); err != nil {
			return err
		}
		// No lock needed: if newname appears after this look, the UPDATE below collides
		// with it on the unique key.
		if m, err := s.get(t, newname, ""); err != nil {
			return err
		} else if m != nil {
			return fs.ErrExist
		}
		_, err = t.exec(`UPDATE llmfs_nodes SET path = ?, parent = ?, name = ? WHERE id = ?`,
			[]byte(newname), []byte(parentOf(newname)), []byte(path.Base(newname)), n.id)
		if err != nil {
			if isUniqueViolation(err) {
				return fs.ErrExist
			}
			return err
		}
		if !n.dir {
			return nil
		}
		// Everything below oldname: paths from oldname+"/" up to, not including,
		// oldname+"0" ('0' follows '/' in byte order).
		from := len(oldname) + 1 // 1-based position of the byte after oldname
		newPrefix := []byte(newname)
		_, err = t.exec(`UPDATE llmfs_nodes SET path = `+t.d.concat("?", "path", "?")+`, parent = `+t.d.concat("?", "parent", "?")+`
			WHERE ws = ? AND path >= ? AND path < ?`,
			newPrefix, from, newPrefix, from, s.ws, []byte(oldname+"/"), []byte(oldname+"0"))
		if isUniqueViolation(err) {
			return fs.ErrExist
		}
		return err
	})
	if err != nil {
		return pathErr("rename", errName, err)
	}
	return nil
}

// Copy implements [store.Copier]: the copy shares the source's content (no chunk is
// copied); a later write to either gives it content of its own.
func (s *Store) Copy(ctx context.Context, src, dst string) error {
	if !fs.ValidPath(src) {
		return pathErr("copy", src, store.ErrInvalidName)
	}
	if !fs.ValidPath(dst) {
		return pathErr("copy", dst, store.ErrInvalidName)
	}
	var errName string
	err := s.change(ctx, true, func(t *txn) error {
		errName = src
		rows, err := s.lockRows(t, t.d.forShare, append(append(ancestors(src), src), ancestors(dst)...)...)
		if err != nil {
			return err
		}
		if err := walkErr(rows, src); err != nil {
			return err
		}
		n := rows[src]
		if n == nil {
			return fs.ErrNotExist
		}
		if n.dir {
			return store.ErrIsDir
		}
		errName = dst
		if dst == "." {
			return fs.ErrExist
		}
		if err := walkErr(rows, dst); err != nil {
			return err
		}
		// The source's row is locked (FOR SHARE above): its content id cannot be
		// released before this reference to it commits (see dropChunks).
		var id int64
		err = t.queryRow(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob)
			VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?) ON CONFLICT (ws, path) DO NOTHING RETURNING id`,
			s.ws, []byte(dst), []byte(parentOf(dst)), []byte(path.Base(dst)), n.size, time.Now().UnixNano(),
			n.hash, n.hstate, n.blob).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fs.ErrExist
		}
		if err != nil {
			return err
		}
		return s.account(t, n.size, 1, n.size)
	})
	if err != nil {
		return pathErr("copy", errName, err)
	}
	return nil
}

// quota reads the workspace's limits and usage as of now, without locking.
func (s *Store) quota(t *txn) (quotaRow, error) {
	var q quotaRow
	err := t.queryRow(`SELECT max_bytes, max_files, max_file_bytes, used_bytes, used_files FROM llmfs_workspaces WHERE id = ?`,
		s.ws).Scan(&q.MaxBytes, &q.MaxFiles, &q.MaxFileBytes, &q.used.Bytes, &q.used.Files)
	if errors.Is(err, sql.ErrNoRows) {
		return q, errWorkspaceGone
	}
	return q, err
}

type quotaRow struct {
	Quota
	used Usage
}

// errWorkspaceGone reports a write to a workspace removed since the store was opened.
var errWorkspaceGone = fmt.Errorf("workspace removed: %w", fs.ErrNotExist)

// account adds dbytes and dfiles to the workspace's usage, failing with [store.ErrQuota]
// if a growth would pass a limit or the file written is now fileSize bytes, past the limit
// per file. Shrinking always succeeds, even over a lowered quota. The UPDATE locks the
// workspace row until commit, so concurrent writers add up exactly.
func (s *Store) account(t *txn, dbytes, dfiles, fileSize int64) error {
	res, err := t.exec(`UPDATE llmfs_workspaces SET used_bytes = used_bytes + CAST(? AS BIGINT), used_files = used_files + CAST(? AS BIGINT)
		WHERE id = ?
		AND (CAST(? AS BIGINT) <= 0 OR max_bytes = 0 OR used_bytes + CAST(? AS BIGINT) <= max_bytes)
		AND (CAST(? AS BIGINT) <= 0 OR max_files = 0 OR used_files + CAST(? AS BIGINT) <= max_files)
		AND (CAST(? AS BIGINT) <= 0 OR max_file_bytes = 0 OR CAST(? AS BIGINT) <= max_file_bytes)`,
		dbytes, dfiles, s.ws, dbytes, dbytes, dfiles, dfiles, dbytes, fileSize)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		if _, err := s.quota(t); err != nil {
			return err
		}
		return store.ErrQuota
	}
	return nil
}
