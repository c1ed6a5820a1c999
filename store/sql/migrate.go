package sqlstore

// A migration brings the schema from version-1 to version. Statements are separated by ";"
// at the end of a line. Migrations are never edited once released: add a new one. (Their
// PostgreSQL text was made idempotent for issue 38, "IF NOT EXISTS" added, with the same
// effect: a step run again after a crash must do nothing.)
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
CREATE TABLE IF NOT EXISTS llmfs_workspaces (
	id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name           TEXT NOT NULL UNIQUE,
	created        BIGINT NOT NULL,
	max_bytes      BIGINT NOT NULL DEFAULT 0,
	max_files      BIGINT NOT NULL DEFAULT 0,
	max_file_bytes BIGINT NOT NULL DEFAULT 0,
	used_bytes     BIGINT NOT NULL DEFAULT 0,
	used_files     BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS llmfs_nodes (
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
CREATE INDEX IF NOT EXISTS llmfs_nodes_parent ON llmfs_nodes (ws, parent, name);
CREATE TABLE IF NOT EXISTS llmfs_chunks (
	blob BIGINT NOT NULL,
	seq  BIGINT NOT NULL,
	data BYTEA NOT NULL,
	PRIMARY KEY (blob, seq)
);
CREATE SEQUENCE IF NOT EXISTS llmfs_blob_ids;
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
CREATE TABLE IF NOT EXISTS llmfs_meta (
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
CREATE TABLE IF NOT EXISTS llmfs_journal (
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
CREATE INDEX IF NOT EXISTS llmfs_journal_state ON llmfs_journal (ws, state);
CREATE TABLE IF NOT EXISTS llmfs_jblobs (
	hash TEXT PRIMARY KEY,
	size BIGINT NOT NULL,
	data BYTEA NOT NULL
);
CREATE TABLE IF NOT EXISTS llmfs_checkpoints (
	ws   BIGINT NOT NULL,
	name TEXT NOT NULL,
	id   BIGINT NOT NULL,
	time BIGINT NOT NULL,
	PRIMARY KEY (ws, name)
);
ALTER TABLE llmfs_workspaces ADD COLUMN IF NOT EXISTS journal_seq BIGINT NOT NULL DEFAULT 0;
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
CREATE TABLE IF NOT EXISTS llmfs_tokens (
	id      TEXT PRIMARY KEY,
	ws      BIGINT NOT NULL,
	name    TEXT NOT NULL,
	mode    TEXT NOT NULL,
	hash    BYTEA NOT NULL,
	created BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS llmfs_tokens_ws ON llmfs_tokens (ws);
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
CREATE INDEX IF NOT EXISTS llmfs_nodes_blob ON llmfs_nodes (blob) WHERE blob <> 0;
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
DROP INDEX IF EXISTS llmfs_journal_state;
CREATE INDEX IF NOT EXISTS llmfs_journal_pending ON llmfs_journal (ws, id) WHERE state <> 'committed';
ALTER TABLE llmfs_workspaces ADD COLUMN IF NOT EXISTS journal_bytes BIGINT NOT NULL DEFAULT 0;
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
CREATE TABLE IF NOT EXISTS llmfs_jparts (
	hash TEXT NOT NULL,
	seq  BIGINT NOT NULL,
	data BYTEA NOT NULL,
	PRIMARY KEY (hash, seq)
);
`,
	},
	{
		// No global lock (issue 38): the deletion of journal content no change refers to
		// any more looks up each candidate hash (the hashes of the changes it pruned) by
		// these indexes, instead of sweeping the database under an advisory lock; content
		// ids are random on PostgreSQL (see nextBlob), so its sequence goes. Every step is
		// one idempotent statement, as from now on every PostgreSQL step must be (see
		// migratePostgres).
		version: 8,
		sqlite: `
CREATE INDEX IF NOT EXISTS llmfs_journal_bhash ON llmfs_journal (b_hash);
CREATE INDEX IF NOT EXISTS llmfs_journal_ahash ON llmfs_journal (a_hash);
CREATE INDEX IF NOT EXISTS llmfs_nodes_kept ON llmfs_nodes (hash) WHERE blob = 0 AND dir = 0;
`,
		postgres: `
CREATE INDEX IF NOT EXISTS llmfs_journal_bhash ON llmfs_journal (b_hash);
CREATE INDEX IF NOT EXISTS llmfs_journal_ahash ON llmfs_journal (a_hash);
CREATE INDEX IF NOT EXISTS llmfs_nodes_kept ON llmfs_nodes (hash) WHERE blob = 0 AND dir = 0;
DROP SEQUENCE IF EXISTS llmfs_blob_ids;
`,
	},
	{
		// Content in object storage (objects.go): a chunk row holds the hash of its
		// content (ref) and no data when an object keeps it; llmfs_objects has a row per
		// object, which writers and the garbage collector lock.
		version: 9,
		sqlite: `
ALTER TABLE llmfs_chunks ADD COLUMN ref TEXT;
CREATE INDEX IF NOT EXISTS llmfs_chunks_ref ON llmfs_chunks (ref) WHERE ref IS NOT NULL;
CREATE TABLE IF NOT EXISTS llmfs_objects (
	hash TEXT NOT NULL PRIMARY KEY,
	seen BIGINT NOT NULL
) WITHOUT ROWID;
`,
		postgres: `
ALTER TABLE llmfs_chunks ADD COLUMN IF NOT EXISTS ref TEXT;
CREATE INDEX IF NOT EXISTS llmfs_chunks_ref ON llmfs_chunks (ref) WHERE ref IS NOT NULL;
CREATE TABLE IF NOT EXISTS llmfs_objects (
	hash TEXT NOT NULL PRIMARY KEY,
	seen BIGINT NOT NULL
);
`,
	},
	{
		// The journal's large content in the same objects as the files' (jparts.go).
		version: 10,
		sqlite: `
ALTER TABLE llmfs_jparts ADD COLUMN ref TEXT;
CREATE INDEX IF NOT EXISTS llmfs_jparts_ref ON llmfs_jparts (ref) WHERE ref IS NOT NULL;
`,
		postgres: `
ALTER TABLE llmfs_jparts ADD COLUMN IF NOT EXISTS ref TEXT;
CREATE INDEX IF NOT EXISTS llmfs_jparts_ref ON llmfs_jparts (ref) WHERE ref IS NOT NULL;
`,
	},
	{
		// The lines each change added and removed, counted when it is recorded (issue 40.3:
		// a listing loaded two contents per entry to count them). -1: not counted (an entry
		// written before, or by a writer without both contents); its reader counts it from
		// the contents the journal keeps.
		version: 11,
		sqlite: `
ALTER TABLE llmfs_journal ADD COLUMN added BIGINT NOT NULL DEFAULT -1;
ALTER TABLE llmfs_journal ADD COLUMN removed BIGINT NOT NULL DEFAULT -1;
`,
		postgres: `
ALTER TABLE llmfs_journal ADD COLUMN IF NOT EXISTS added BIGINT NOT NULL DEFAULT -1;
ALTER TABLE llmfs_journal ADD COLUMN IF NOT EXISTS removed BIGINT NOT NULL DEFAULT -1;
`,
	},
	{
		// What build tools need (issue 36): a file's permission bits (mode, 0 for the
		// defaults) and symbolic links, rows of dir = 2 whose target is kept as written.
		// The partial index answers "has this workspace any link?" at once (link.go).
		version: 12,
		sqlite: `
ALTER TABLE llmfs_nodes ADD COLUMN mode BIGINT NOT NULL DEFAULT 0;
ALTER TABLE llmfs_nodes ADD COLUMN target BLOB;
CREATE INDEX IF NOT EXISTS llmfs_nodes_links ON llmfs_nodes (ws) WHERE dir = 2;
`,
		postgres: `
ALTER TABLE llmfs_nodes ADD COLUMN IF NOT EXISTS mode BIGINT NOT NULL DEFAULT 0;
ALTER TABLE llmfs_nodes ADD COLUMN IF NOT EXISTS target BYTEA;
CREATE INDEX IF NOT EXISTS llmfs_nodes_links ON llmfs_nodes (ws) WHERE dir = 2;
`,
	},
	{
		// Keys that spread (issue 38): a node's id was an identity, rising one by one, so
		// every new file went to the end of one key range (one hot range on CockroachDB
		// or YugabyteDB). New ids are 63 bits hashed from a random UUID; the ids of rows
		// there stay as they are, and nothing orders by them. SQLite, one writer at a time
		// on one machine, keeps its rowid.
		version: 13,
		sqlite:  ``,
		postgres: `
ALTER TABLE llmfs_nodes ALTER COLUMN id DROP IDENTITY IF EXISTS;
ALTER TABLE llmfs_nodes ALTER COLUMN id SET DEFAULT (('x' || substr(md5(gen_random_uuid()::text), 1, 16))::bit(64)::bigint & 9223372036854775807);
`,
	},
	{
		// Cheaper references (issue 40.3): the two indexes by which the deletion of
		// journal content finds whether a change still refers to it (version 8) take the
		// first 12 hex digits of each hash, not all 64: the index entry each change adds
		// twice is a quarter as long, which took about a quarter off the CPU of folding a
		// host directory's changes (BenchmarkJournalFold). A lookup compares the whole hash
		// in the row it finds. The new indexes come first, so that no lookup meanwhile
		// goes without one.
		version: 14,
		sqlite: `
CREATE INDEX IF NOT EXISTS llmfs_journal_bref ON llmfs_journal (substr(b_hash, 1, 12));
CREATE INDEX IF NOT EXISTS llmfs_journal_aref ON llmfs_journal (substr(a_hash, 1, 12));
DROP INDEX IF EXISTS llmfs_journal_bhash;
DROP INDEX IF EXISTS llmfs_journal_ahash;
`,
		postgres: `
CREATE INDEX IF NOT EXISTS llmfs_journal_bref ON llmfs_journal (substr(b_hash, 1, 12));
CREATE INDEX IF NOT EXISTS llmfs_journal_aref ON llmfs_journal (substr(a_hash, 1, 12));
DROP INDEX IF EXISTS llmfs_journal_bhash;
DROP INDEX IF EXISTS llmfs_journal_ahash;
`,
	},
}

// refPrefix is how much of a hash the journal's reference indexes take (migration 14;
// the 12 in their expressions, and in the lookups by them).
const refPrefix = 12

// refKey returns what a reference index holds of hash h.
func refKey(h string) string { return h[:min(len(h), refPrefix)] }
