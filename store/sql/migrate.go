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
	{
		// A journaled change dirties fewer b-tree pages (issue 14.8). On SQLite the journal
		// and its blobs become WITHOUT ROWID tables, each one b-tree keyed by its primary key
		// instead of a table and an index. The index on state served no query and was
		// updated by every change; it now holds only changes not committed (a host
		// directory's pending ones), which a SQL store never writes. journal_bytes bounds a
		// workspace's distinct journal content from above (the sizes of all its changes'
		// file versions), so pruning can tell without reading the journal that it is within
		// its bounds.
		version: 6,
		sqlite: `
CREATE TABLE llmfs_journal6 (
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
) WITHOUT ROWID;
INSERT INTO llmfs_journal6 (ws, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state)
	SELECT ws, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state FROM llmfs_journal;
DROP TABLE llmfs_journal;
ALTER TABLE llmfs_journal6 RENAME TO llmfs_journal;
CREATE INDEX llmfs_journal_pending ON llmfs_journal (ws, id) WHERE state <> 'committed';
CREATE TABLE llmfs_jblobs6 (
	hash TEXT NOT NULL PRIMARY KEY,
	size BIGINT NOT NULL,
	data BLOB NOT NULL
) WITHOUT ROWID;
INSERT INTO llmfs_jblobs6 (hash, size, data) SELECT hash, size, data FROM llmfs_jblobs;
DROP TABLE llmfs_jblobs;
ALTER TABLE llmfs_jblobs6 RENAME TO llmfs_jblobs;
ALTER TABLE llmfs_workspaces ADD COLUMN journal_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE llmfs_workspaces SET journal_bytes = (SELECT COALESCE(SUM(
	CASE WHEN b_kind = 'file' THEN b_size ELSE 0 END + CASE WHEN a_kind = 'file' THEN a_size ELSE 0 END), 0)
	FROM llmfs_journal WHERE ws = llmfs_workspaces.id);
`,
		postgres: `
DROP INDEX llmfs_journal_state;
CREATE INDEX llmfs_journal_pending ON llmfs_journal (ws, id) WHERE state <> 'committed';
ALTER TABLE llmfs_workspaces ADD COLUMN journal_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE llmfs_workspaces SET journal_bytes = (SELECT COALESCE(SUM(
	CASE WHEN b_kind = 'file' THEN b_size ELSE 0 END + CASE WHEN a_kind = 'file' THEN a_size ELSE 0 END), 0)
	FROM llmfs_journal WHERE ws = llmfs_workspaces.id);
`,
	},
	{
		// Journal blobs above blobPart in parts (jparts.go): SQLite held two more copies
		// of a big blob bound whole.
		version: 7,
		sqlite: `
CREATE TABLE llmfs_jparts (
	hash TEXT NOT NULL,
	seq  BIGINT NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (hash, seq)
) WITHOUT ROWID;
`,
		postgres: `
CREATE TABLE llmfs_jparts (
	hash TEXT NOT NULL,
	seq  BIGINT NOT NULL,
	data BYTEA NOT NULL,
	PRIMARY KEY (hash, seq)
);
`,
	},
}

// migrate applies the migrations the database lacks, in one transaction that holds the
// database's write lock (SQLite) or an advisory lock (PostgreSQL), so processes opening the
// same database at once apply each migration exactly once.
func (x *DB) migrate(ctx context.Context) error {
	return x.migrateWith(ctx, migrations)
}

// migrateWith applies ms (a prefix of migrations, in tests) as migrate does.
func (x *DB) migrateWith(ctx context.Context, ms []migration) error {
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
		if top := ms[len(ms)-1].version; have > top {
			return fmt.Errorf("database schema version %d is newer than this program's %d", have, top)
		}
		for _, m := range ms {
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
