package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A migration brings the schema from version-1 to version. Statements are separated by ";"
// at the end of a line. Migrations are never edited once released: add a new one.
type migration struct {
	version  int64
	sqlite   string
	postgres string
}

var migrations = []migration{
	{
		version: 1,
		sqlite: `
CREATE TABLE llmfs_workspaces (
	id             INTEGER PRIMARY KEY AUTOINCREMENT,
	name           TEXT NOT NULL UNIQUE,
	created        BIGINT NOT NULL,
	max_bytes      BIGINT NOT NULL DEFAULT 0,
	max_files      BIGINT NOT NULL DEFAULT 0,
	max_file_bytes BIGINT NOT NULL DEFAULT 0,
	used_bytes     BIGINT NOT NULL DEFAULT 0,
	used_files     BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE llmfs_nodes (
	id     INTEGER PRIMARY KEY AUTOINCREMENT,
	ws     BIGINT NOT NULL,
	path   BLOB NOT NULL,
	parent BLOB NOT NULL,
	name   BLOB NOT NULL,
	dir    SMALLINT NOT NULL,
	size   BIGINT NOT NULL,
	mtime  BIGINT NOT NULL,
	hash   TEXT NOT NULL,
	hstate BLOB,
	blob   BIGINT NOT NULL DEFAULT 0,
	UNIQUE (ws, path)
);
CREATE INDEX llmfs_nodes_parent ON llmfs_nodes (ws, parent, name);
CREATE TABLE llmfs_chunks (
	blob BIGINT NOT NULL,
	seq  BIGINT NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (blob, seq)
);
CREATE TABLE llmfs_counters (
	name  TEXT PRIMARY KEY,
	value BIGINT NOT NULL
);
INSERT INTO llmfs_counters (name, value) VALUES ('blob', 0);
`,
		postgres: `
CREATE TABLE llmfs_workspaces (
	id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name           TEXT NOT NULL UNIQUE,
	created        BIGINT NOT NULL,
	max_bytes      BIGINT NOT NULL DEFAULT 0,
	max_files      BIGINT NOT NULL DEFAULT 0,
	max_file_bytes BIGINT NOT NULL DEFAULT 0,
	used_bytes     BIGINT NOT NULL DEFAULT 0,
	used_files     BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE llmfs_nodes (
	id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	ws     BIGINT NOT NULL,
	path   BYTEA NOT NULL,
	parent BYTEA NOT NULL,
	name   BYTEA NOT NULL,
	dir    SMALLINT NOT NULL,
	size   BIGINT NOT NULL,
	mtime  BIGINT NOT NULL,
	hash   TEXT NOT NULL,
	hstate BYTEA,
	blob   BIGINT NOT NULL DEFAULT 0,
	UNIQUE (ws, path)
);
CREATE INDEX llmfs_nodes_parent ON llmfs_nodes (ws, parent, name);
CREATE TABLE llmfs_chunks (
	blob BIGINT NOT NULL,
	seq  BIGINT NOT NULL,
	data BYTEA NOT NULL,
	PRIMARY KEY (blob, seq)
);
CREATE SEQUENCE llmfs_blob_ids;
`,
	},
	{
		// Metadata (store.Metadata): small records about a workspace, outside its tree.
		version: 2,
		sqlite: `
CREATE TABLE llmfs_meta (
	ws    BIGINT NOT NULL,
	key   TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (ws, key)
);
`,
		postgres: `
CREATE TABLE llmfs_meta (
	ws    BIGINT NOT NULL,
	key   TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (ws, key)
);
`,
	},
	{
		// The journal (store.Journal): one row per change, content blobs by hash (shared
		// by every workspace), named checkpoints; journal_seq numbers a workspace's changes.
		version: 3,
		sqlite: `
CREATE TABLE llmfs_journal (
	ws     BIGINT NOT NULL,
	id     BIGINT NOT NULL,
	cset   BIGINT NOT NULL,
	time   BIGINT NOT NULL,
	actor  TEXT NOT NULL,
	op     TEXT NOT NULL,
	path   BLOB NOT NULL,
	other  BLOB NOT NULL,
	b_kind TEXT NOT NULL,
	b_hash TEXT NOT NULL,
	b_size BIGINT NOT NULL,
	a_kind TEXT NOT NULL,
	a_hash TEXT NOT NULL,
	a_size BIGINT NOT NULL,
	state  TEXT NOT NULL,
	PRIMARY KEY (ws, id)
);
CREATE INDEX llmfs_journal_state ON llmfs_journal (ws, state);
CREATE TABLE llmfs_jblobs (
	hash TEXT PRIMARY KEY,
	size BIGINT NOT NULL,
	data BLOB NOT NULL
);
CREATE TABLE llmfs_checkpoints (
	ws   BIGINT NOT NULL,
	name TEXT NOT NULL,
	id   BIGINT NOT NULL,
	time BIGINT NOT NULL,
	PRIMARY KEY (ws, name)
);
ALTER TABLE llmfs_workspaces ADD COLUMN journal_seq BIGINT NOT NULL DEFAULT 0;
`,
		postgres: `
CREATE TABLE llmfs_journal (
	ws     BIGINT NOT NULL,
	id     BIGINT NOT NULL,
	cset   BIGINT NOT NULL,
	time   BIGINT NOT NULL,
	actor  TEXT NOT NULL,
	op     TEXT NOT NULL,
	path   BYTEA NOT NULL,
	other  BYTEA NOT NULL,
	b_kind TEXT NOT NULL,
	b_hash TEXT NOT NULL,
	b_size BIGINT NOT NULL,
	a_kind TEXT NOT NULL,
	a_hash TEXT NOT NULL,
	a_size BIGINT NOT NULL,
	state  TEXT NOT NULL,
	PRIMARY KEY (ws, id)
);
CREATE INDEX llmfs_journal_state ON llmfs_journal (ws, state);
CREATE TABLE llmfs_jblobs (
	hash TEXT PRIMARY KEY,
	size BIGINT NOT NULL,
	data BYTEA NOT NULL
);
CREATE TABLE llmfs_checkpoints (
	ws   BIGINT NOT NULL,
	name TEXT NOT NULL,
	id   BIGINT NOT NULL,
	time BIGINT NOT NULL,
	PRIMARY KEY (ws, name)
);
ALTER TABLE llmfs_workspaces ADD COLUMN journal_seq BIGINT NOT NULL DEFAULT 0;
`,
	},
	{
		// Access tokens (tokens.go): each grants one workspace in one mode; only the
		// SHA-256 of the secret is kept.
		version: 4,
		sqlite: `
CREATE TABLE llmfs_tokens (
	id      TEXT PRIMARY KEY,
	ws      BIGINT NOT NULL,
	name    TEXT NOT NULL,
	mode    TEXT NOT NULL,
	hash    BLOB NOT NULL,
	created BIGINT NOT NULL
);
CREATE INDEX llmfs_tokens_ws ON llmfs_tokens (ws);
`,
		postgres: `
CREATE TABLE llmfs_tokens (
	id      TEXT PRIMARY KEY,
	ws      BIGINT NOT NULL,
	name    TEXT NOT NULL,
	mode    TEXT NOT NULL,
	hash    BYTEA NOT NULL,
	created BIGINT NOT NULL
);
CREATE INDEX llmfs_tokens_ws ON llmfs_tokens (ws);
`,
	},
	{
		// Content shared between files and workspaces (a copy, a fork): the content id of
		// a file may be another file's too, and its chunks go when no file of any
		// workspace refers to it. The index finds those references.
		version: 5,
		sqlite: `
CREATE INDEX llmfs_nodes_blob ON llmfs_nodes (blob) WHERE blob <> 0;
`,
		postgres: `
CREATE INDEX llmfs_nodes_blob ON llmfs_nodes (blob) WHERE blob <> 0;
`,
	},
}

// schemaVersion is the schema version this package writes.
var schemaVersion = migrations[len(migrations)-1].version

// migrate applies the migrations the database lacks, in one transaction that holds the
// database's write lock (SQLite) or an advisory lock (PostgreSQL), so processes opening the
// same database at once apply each migration exactly once.
func (x *DB) migrate(ctx context.Context) error {
	if x.d.name == SQLite {
		// WAL lets readers run beside the one writer. It is a property of the database file,
		// set outside any transaction; an in-memory database refuses it, harmlessly. A
		// file not yet written takes newPageSize first, on the same connection (the
		// pragma is the connection's); any other keeps its page size.
		if c, err := x.db.Conn(ctx); err == nil {
			c.ExecContext(ctx, "PRAGMA page_size = "+strconv.Itoa(newPageSize))
			c.ExecContext(ctx, "PRAGMA journal_mode = WAL")
			c.Close()
		}
	}
	return x.write(ctx, true, func(t *txn) error {
		t.x, t.tx = nil, nil // DDL, run once: nothing to keep prepared
		if t.d.name == Postgres {
			// Serializes concurrent migrators; released at commit. The key is arbitrary.
			if _, err := t.exec(`SELECT pg_advisory_xact_lock(7460504641626815333)`); err != nil {
				return err
			}
		}
		if _, err := t.exec(`CREATE TABLE IF NOT EXISTS llmfs_schema (
			version BIGINT PRIMARY KEY,
			applied BIGINT NOT NULL
		)`); err != nil {
			return err
		}
		var have int64
		if err := t.queryRow(`SELECT COALESCE(MAX(version), 0) FROM llmfs_schema`).Scan(&have); err != nil {
			return err
		}
		if have > schemaVersion {
			return fmt.Errorf("database schema version %d is newer than this program's %d", have, schemaVersion)
		}
		for _, m := range migrations {
			if m.version <= have {
				continue
			}
			text := m.sqlite
			if t.d.name == Postgres {
				text = m.postgres
			}
			for stmt := range strings.SplitSeq(text, ";\n") {
				if strings.TrimSpace(stmt) == "" {
					continue
				}
				if _, err := t.exec(stmt); err != nil {
					return err
				}
			}
			if _, err := t.exec(`INSERT INTO llmfs_schema (version, applied) VALUES (?, ?)`,
				m.version, time.Now().UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
}
