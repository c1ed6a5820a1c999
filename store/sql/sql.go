// Package sqlstore is a [store.Store] that keeps a virtual file system in a SQL database,
// many workspaces per database, each addressed by a workspace id and unable to see another.
//
// It runs over [database/sql] with two dialects: [SQLite] (the pure Go driver
// modernc.org/sqlite, the embedded default) and [Postgres] (github.com/jackc/pgx/v5 through its
// stdlib adapter), for several llmfs processes sharing one database. [OpenDSN] and [Connect]
// pick the driver, which a program registers by importing store/sql/sqlite or
// store/sql/postgres for its side effect; [New] and [Open] take a *sql.DB the caller opened.
//
// # Layout
//
// Tables: llmfs_workspaces (id, quota, usage), llmfs_nodes (one row per file or directory),
// llmfs_chunks (file content), llmfs_schema (applied migrations), and on SQLite
// llmfs_counters (the last content id; PostgreSQL's content ids are random, see randomBlob).
//
// Every file and directory is a row keyed by (workspace, path), with its parent path and base
// name, so empty directories exist and a directory listing is one indexed query on
// (workspace, parent). Names and paths are stored as bytes (BLOB, BYTEA): any [fs.ValidPath]
// name round-trips (control characters and all; invalid UTF-8 is no valid name), and
// entries sort in byte order as [strings.Compare] does, whatever the database's collation.
//
// File content is stored in chunks of [ChunkSize] bytes, keyed by a content id that a
// replace changes (content ids are never reused). Files share content: a copy, and every
// file of a fork ([DB.Fork]), refers to the same content id as its source, and content is
// deleted when no file of any workspace refers to it any more; a write to a file whose
// content is shared gives it content of its own first, so the other never changes. [Store.Open] returns a file that
// fetches chunks as it reads them, so reading the first lines of a large file loads one
// chunk; an append rewrites only the last, partial chunk and adds new ones. On SQLite a
// write of at most a chunk made in a change set of the journal keeps its content once, as
// the journal's blob (llmfs_jblobs, by hash): the row has no content id, and the blob stays
// while a file or a change refers to it. Each file row
// keeps its size, its content hash ([store.Hash]) and the SHA-256 state that produced it, so
// [store.WriteOptions.IfMatch] is checked without reading content and an append extends the
// hash exactly without reading the file back.
//
// # Transactions
//
// Every operation is one transaction. On SQLite a writing transaction starts with
// BEGIN IMMEDIATE, so writers are serialized across connections and processes (waiting up to
// a busy timeout). On PostgreSQL a writer locks the rows it depends on: the target row
// FOR UPDATE and the target's ancestor directories FOR SHARE, so a conditional write, a
// rename of an ancestor or a removal of the parent cannot interleave with it; deadlock
// victims are retried. Renaming a directory moves its whole subtree with one UPDATE by path
// range. Reads are single statements outside any transaction and never wait for writers.
//
// # Quotas
//
// Each workspace row holds its limits ([Quota]) and usage counters (bytes and entries),
// updated in the same transaction as every change, so the counters stay exact and a write
// that would exceed a limit fails with an error wrapping [store.ErrQuota] and leaves nothing
// behind.
//
// # What is not kept
//
// Directories keep the time they were created: adding or removing an entry does not change
// a directory's modification time (doing so would make every writer in a directory update
// one row). There are no symbolic links, permissions or special files.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/llmfs/llmfs/store/blob"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"
)

// ChunkSize is the size of the chunks file content is stored in. Every chunk of a file but
// the last holds exactly ChunkSize bytes. It bounds what reading the first lines of a file
// loads and what an append rewrites; 64 KiB measured several times faster for both than
// 256 KiB (BENCHMARKS.md) while keeping a 100 MB file to 1,600 rows.
const ChunkSize = 64 << 10

// A Dialect names the SQL database behind a store.
type Dialect string

// The supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// A Quota limits what a workspace may hold. A zero field means no limit.
type Quota struct {
	// MaxBytes caps the total size of the workspace's files.
	MaxBytes int64
	// MaxFiles caps the number of entries: regular files and directories, the root aside.
	MaxFiles int64
	// MaxFileBytes caps the size of any one file.
	MaxFileBytes int64
}

// Usage is what a workspace holds.
type Usage struct {
	Bytes int64 // total size of regular files
	Files int64 // regular files and directories, the root aside
}

// A Workspace describes one workspace of a database.
type Workspace struct {
	ID      string
	Created time.Time
	Quota   Quota
	Usage   Usage
}

// Options control [DB.Workspace] and [Open]. A nil *Options means the zero value.
type Options struct {
	// Create makes the workspace, with Quota, when it does not exist. Without it, opening a
	// missing workspace fails with an error wrapping [fs.ErrNotExist].
	Create bool
	// Quota is the quota of a workspace that Create makes; an existing one keeps its own.
	Quota Quota
}

// A DB is a database of workspaces. It is safe for concurrent use.
type DB struct {
	db    *sql.DB
	d     *dialect
	owned bool // Close closes db

	notifiers sync.Map // workspace row id -> *store.Notifier, for journal waiters
	links     sync.Map // workspace row id -> *linkState (link.go)
	lz4       lz4Probe // whether PostgreSQL compresses with lz4 (batchlz4.go)

	stmts  sync.Map     // rebound query -> *sql.Stmt (see prepared)
	nstmts atomic.Int64 // entries in stmts

	// immediate says db begins its transactions with BEGIN IMMEDIATE (Connect put
	// _txlock=immediate in a SQLite DSN, beside a busy timeout), so SQLite writes can be
	// database/sql transactions, which reuse prepared statements.
	immediate bool
	// freshBlobs says db's driver returns a new slice for every blob (Connect picked the
	// driver), so content scanned as sql.RawBytes may be kept (see ownBlob).
	freshBlobs bool
	// objects keeps full chunks of content when set (objects.go).
	objects blob.Store
	// single says db has one connection (SQLite ":memory:"): a transaction holds it, so
	// statements are not prepared (that takes a connection) while one runs.
	single bool
}

// New returns a DB over db, which must be a database of the given dialect, and brings its
// schema up to date. Migrations are versioned, idempotent and safe to run from several
// processes at once. Closing the returned DB does not close db.
//
// For SQLite, db should be opened with a busy timeout and in WAL mode, as [Connect] does
// (pragmas busy_timeout and journal_mode); writing transactions set the busy timeout
// themselves.
func New(ctx context.Context, db *sql.DB, d Dialect) (*DB, error) {
	dl, err := dialectOf(d)
	if err != nil {
		return nil, err
	}
	x := &DB{db: db, d: dl}
	if err := x.migrate(ctx); err != nil {
		return nil, fmt.Errorf("sqlstore: migrate %s database: %w", d, err)
	}
	return x, nil
}

// SQL returns the underlying database handle.
func (x *DB) SQL() *sql.DB { return x.db }

// Dialect returns the database's dialect.
func (x *DB) Dialect() Dialect { return x.d.name }

// Close closes the database handle if the DB opened it ([Connect]); otherwise it does nothing.
func (x *DB) Close() error {
	x.closeStatements()
	if x.owned {
		return x.db.Close()
	}
	return nil
}

func wsErr(op, id string, err error) error {
	return &fs.PathError{Op: op, Path: "workspace " + id, Err: err}
}

// Create creates the workspace id with quota q. It fails with an error wrapping
// [fs.ErrExist] if the workspace exists and [fs.ErrInvalid] if id is not a valid id
// ([CheckID]) or the quota is negative.
func (x *DB) Create(ctx context.Context, id string, q Quota) error {
	if err := CheckID(id); err != nil {
		return err
	}
	if q.MaxBytes < 0 || q.MaxFiles < 0 || q.MaxFileBytes < 0 {
		return wsErr("create", id, fs.ErrInvalid)
	}
	return x.write(ctx, true, func(t *txn) error {
		now := time.Now().UnixNano()
		var wid int64
		err := t.queryRow(`INSERT INTO llmfs_workspaces (name, created, max_bytes, max_files, max_file_bytes)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING id`,
			id, now, q.MaxBytes, q.MaxFiles, q.MaxFileBytes).Scan(&wid)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("create", id, fs.ErrExist)
		}
		if err != nil {
			return wsErr("create", id, err)
		}
		_, err = t.exec(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash)
			VALUES (?, ?, ?, ?, 1, 0, ?, '')`, wid, []byte("."), []byte{}, []byte("."), now)
		if err != nil {
			return wsErr("create", id, err)
		}
		return nil
	})
}

// List returns the database's workspaces sorted by id (byte order).
func (x *DB) List(ctx context.Context) ([]Workspace, error) {
	rows, err := x.db.QueryContext(ctx, x.d.rebind(`SELECT name, created, max_bytes, max_files, max_file_bytes,
		used_bytes, used_files FROM llmfs_workspaces`))
	if err != nil {
		return nil, fmt.Errorf("sqlstore: list workspaces: %w", err)
	}
	defer rows.Close()
	var out []Workspace
	for rows.Next() {
		var w Workspace
		var created int64
		if err := rows.Scan(&w.ID, &created, &w.Quota.MaxBytes, &w.Quota.MaxFiles, &w.Quota.MaxFileBytes,
			&w.Usage.Bytes, &w.Usage.Files); err != nil {
			return nil, fmt.Errorf("sqlstore: list workspaces: %w", err)
		}
		w.Created = time.Unix(0, created)
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: list workspaces: %w", err)
	}
	// Sorted here rather than by the database, whose text collation may not be byte order.
	sortWorkspaces(out)
	return out, nil
}

// Remove deletes the workspace id and everything in it in one transaction, except content
// that a file or a change of another workspace (a fork) shares; then, in another, its
// history's content that nothing else refers to. It fails with an error wrapping
// [fs.ErrNotExist] if there is no such workspace.
func (x *DB) Remove(ctx context.Context, id string) error {
	if err := CheckID(id); err != nil {
		return err
	}
	var hashes []string
	err := x.write(ctx, true, func(t *txn) error {
		var wid int64
		err := t.queryRow(`SELECT id FROM llmfs_workspaces WHERE name = ?`+t.d.forUpdate, id).Scan(&wid)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("remove", id, fs.ErrNotExist)
		}
		if err != nil {
			return wsErr("remove", id, err)
		}
		if _, err := t.exec(`DELETE FROM llmfs_chunks WHERE blob IN (SELECT blob FROM llmfs_nodes WHERE ws = ? AND blob <> 0)
			AND NOT EXISTS (SELECT 1 FROM llmfs_nodes o WHERE o.blob = llmfs_chunks.blob AND o.ws <> ?)`, wid, wid); err != nil {
			return wsErr("remove", id, err) // content a fork shares stays
		}
		// The content of its history and of its files the journal keeps: candidates for
		// deletion once the workspace is gone.
		if hashes, err = journalHashes(t, wid); err != nil {
			return wsErr("remove", id, err)
		}
		for _, q := range []string{
			`DELETE FROM llmfs_nodes WHERE ws = ?`,
			`DELETE FROM llmfs_meta WHERE ws = ?`,
			`DELETE FROM llmfs_journal WHERE ws = ?`,
			`DELETE FROM llmfs_checkpoints WHERE ws = ?`,
			`DELETE FROM llmfs_tokens WHERE ws = ?`,
			`DELETE FROM llmfs_workspaces WHERE id = ?`,
		} {
			if _, err := t.exec(q, wid); err != nil {
				return wsErr("remove", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The journal's content is shared by every workspace of the database: what only this
	// one referred to goes with it, rather than wait for another's prune.
	if err := x.dropUnreferenced(ctx, hashes); err != nil {
		return wsErr("remove", id, err)
	}
	return nil
}

// Workspace returns the store of workspace id. See [Options] for creating it.
func (x *DB) Workspace(ctx context.Context, id string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := CheckID(id); err != nil {
		return nil, err
	}
	for {
		var wid int64
		err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT id FROM llmfs_workspaces WHERE name = ?`), id).Scan(&wid)
		if err == nil {
			return &Store{x: x, ws: wid, id: id}, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, wsErr("open", id, err)
		}
		if !o.Create {
			return nil, wsErr("open", id, fs.ErrNotExist)
		}
		// Another process may create it first: that is fine, look again.
		if err := x.Create(ctx, id, o.Quota); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		o.Create = false
	}
}

// Open brings db's schema up to date (see [New]) and returns the store of workspace id.
// Closing the store does not close db. A server that opens many workspaces should call
// [New] once and [DB.Workspace] for each.
func Open(ctx context.Context, db *sql.DB, d Dialect, id string, opts *Options) (*Store, error) {
	x, err := New(ctx, db, d)
	if err != nil {
		return nil, err
	}
	return x.Workspace(ctx, id, opts)
}

// Quota returns the workspace's quota and usage.
func (s *Store) Quota(ctx context.Context) (Quota, Usage, error) {
	var q Quota
	var u Usage
	err := s.x.db.QueryRowContext(ctx, s.x.d.rebind(`SELECT max_bytes, max_files, max_file_bytes, used_bytes, used_files
		FROM llmfs_workspaces WHERE id = ?`), s.ws).Scan(&q.MaxBytes, &q.MaxFiles, &q.MaxFileBytes, &u.Bytes, &u.Files)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = fs.ErrNotExist
		}
		return q, u, wsErr("quota", s.id, err)
	}
	return q, u, nil
}

// SetQuota replaces the workspace's quota. Lowering it below the current usage removes
// nothing: writes that would grow the workspace fail until enough is removed.
func (s *Store) SetQuota(ctx context.Context, q Quota) error {
	if q.MaxBytes < 0 || q.MaxFiles < 0 || q.MaxFileBytes < 0 {
		return wsErr("setquota", s.id, fs.ErrInvalid)
	}
	return s.x.write(ctx, true, func(t *txn) error {
		res, err := t.exec(`UPDATE llmfs_workspaces SET max_bytes = ?, max_files = ?, max_file_bytes = ? WHERE id = ?`,
			q.MaxBytes, q.MaxFiles, q.MaxFileBytes, s.ws)
		if err != nil {
			return wsErr("setquota", s.id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return wsErr("setquota", s.id, fs.ErrNotExist)
		}
		return nil
	})
}
