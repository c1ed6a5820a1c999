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

	chunkReads   atomic.Int64 // chunk rows fetched by readers, for tests
	chunkQueries atomic.Int64 // queries readers made for chunks after the first, for tests
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
	link   bool  // a symbolic link (dir = 2); its target is read by Readlink
	perm   int64 // permission bits set by Chmod; 0: the defaults
	size   int64
	mtime  int64
	hash   string
	hstate []byte
	blob   int64 // content id: the key of the file's chunks
}

const nodeCols = `id, path, dir, size, mtime, hash, hstate, blob, mode`

func scanNode(sc interface{ Scan(...any) error }) (*node, error) {
	var n node
	var p []byte
	var dir int64
	if err := sc.Scan(&n.id, &p, &dir, &n.size, &n.mtime, &n.hash, &n.hstate, &n.blob, &n.perm); err != nil {
		return nil, err
	}
	n.path = string(p)
	n.setKind(dir)
	return &n, nil
}

// The values of llmfs_nodes.dir.
const (
	kindFile = 0
	kindDir  = 1
	kindLink = 2
)

// setKind sets n's kind from its dir column.
func (n *node) setKind(dir int64) {
	n.dir, n.link = dir == kindDir, dir == kindLink
}

// info describes n; it also serves as n's directory entry.
func (n *node) info() *store.Entry {
	perm := fs.FileMode(n.perm)
	switch {
	case n.dir:
		return store.NewDir(path.Base(n.path), time.Unix(0, n.mtime)).WithPerm(perm)
	case n.link:
		return store.NewLink(path.Base(n.path), n.size, time.Unix(0, n.mtime))
	}
	return store.NewFile(path.Base(n.path), n.size, time.Unix(0, n.mtime)).WithPerm(perm)
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
		if n.link {
			return errLinkOnPath
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
//
// On SQLite its statements run without ctx's cancellation, which is checked before each
// instead (and between the rows of a listing, see checkRows): with a context that can be
// cancelled, database/sql and the driver each start a goroutine per statement to watch it,
// and a Stat took 1.6 times the CPU it takes with context.Background. A read of SQLite
// is a few lookups in a local file; one of PostgreSQL waits on the network, and keeps ctx.
func (s *Store) read(ctx context.Context) *txn {
	if s.tx != nil {
		return s.tx
	}
	// Kept small enough to inline, so a txn that does not escape stays on the stack.
	return &txn{ctx: ctx, q: s.x.db, d: s.x.d, x: s.x, detach: true}
}

// checkRows is how many rows of a listing are read between two checks of the context
// (see read).
const checkRows = 1024

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
		n, err = s.getInfo(t, name)
	}
	if err == nil && n == nil {
		err = s.missing(t, name)
	}
	if err == nil && n.link {
		err = errLinkOnPath
	}
	if errors.Is(err, errLinkOnPath) {
		return followed(s, ctx, "stat", name, func(real string) (fs.FileInfo, error) { return s.Stat(ctx, real) })
	}
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return n.info(), nil
}

// getInfo is get for what [node.info] needs: the type, size, time and mode of name's row, or nil
// if there is none. Leaving out the id, hash, hash state and content id spares the
// driver a copy and Scan an allocation of each (a hash state is over 100 bytes): Stat is
// the one read a listing tool makes per file.
func (s *Store) getInfo(t *txn, name string) (*node, error) {
	n := &node{path: name}
	var dir int64
	err := t.queryRow(`SELECT dir, size, mtime, mode FROM llmfs_nodes WHERE ws = ? AND path = ?`, s.ws, []byte(name)).
		Scan(&dir, &n.size, &n.mtime, &n.perm)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	n.setKind(dir)
	return n, err
}

// ReadDir implements [store.Store]. The entries come from one query on the (workspace,
// parent, name) index, in index order. Only an empty result costs a second query, to tell
// an empty directory from a missing one or a file.
func (s *Store) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr("readdir", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	rows, err := t.query(`SELECT name, dir, size, mtime, mode FROM llmfs_nodes WHERE ws = ? AND parent = ? ORDER BY name`,
		s.ws, []byte(name))
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	defer rows.Close()
	out := []fs.DirEntry{}
	for rows.Next() {
		if len(out)%checkRows == checkRows-1 && ctx.Err() != nil {
			return nil, pathErr("readdir", name, ctx.Err())
		}
		var dir, size, mtime, perm int64
		var base []byte
		if err := rows.Scan(&base, &dir, &size, &mtime, &perm); err != nil {
			return nil, pathErr("readdir", name, err)
		}
		n := node{path: string(base), size: size, mtime: mtime, perm: perm}
		n.setKind(dir)
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
	case n.link:
		err = errLinkOnPath
	case !n.dir:
		err = store.ErrNotDir
	}
	if errors.Is(err, errLinkOnPath) {
		return followed(s, ctx, "readdir", name, func(real string) ([]fs.DirEntry, error) { return s.ReadDir(ctx, real) })
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
	var ref, hash sql.NullString
	// The hash is read only for content the journal's blobs keep (no content id), which
	// it finds: a hash string for every file opened was a fifth of what Open allocated.
	err := t.queryOne(`SELECT n.blob, n.dir, n.size, n.mtime, CASE WHEN n.blob = 0 THEN n.hash END, `+firstChunk+`, c.ref FROM llmfs_nodes n
		LEFT JOIN llmfs_chunks c ON c.blob = n.blob AND c.seq = 0
		WHERE n.ws = ? AND n.path = ?`, []any{s.ws, []byte(name)}, &n.blob, &dir, &n.size, &n.mtime, &hash, &first, &ref)
	n.hash = hash.String
	if err == nil {
		first, err = s.x.chunkData(ctx, first, ref)
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = s.missing(t, name)
	}
	if err == nil && dir == kindLink {
		err = errLinkOnPath
	}
	if errors.Is(err, errLinkOnPath) {
		return followed(s, ctx, "open", name, func(real string) (fs.File, error) { return s.Open(ctx, real) })
	}
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	n.path = name
	n.setKind(dir)
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

// parentOf returns the path of the directory holding name ("." at the top).
func parentOf(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return "."
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
