package sqlstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Migrations run differently on the two dialects. SQLite is one file with one writer: all of
// them run in one transaction that holds its write lock. PostgreSQL, and the distributed
// databases that speak its protocol (YugabyteDB, CockroachDB), get no advisory lock and no
// DDL inside a long transaction, which those databases do not support well: each statement
// is a step of its own, recorded in llmfs_schema_steps once it has run, and written so that
// running it again does nothing (a migrator killed between a step and its record runs it
// again). Concurrent migrators take turns by a lease in the row of llmfs_migration_lock,
// which a migrator that died loses after migrationLease.

// migrationLease is how long a migrator holds the lock row without renewing it; it renews
// it before every step.
const migrationLease = 2 * time.Minute

// migrate applies the migrations the database lacks, so that processes opening the same
// database at once apply each exactly once.
func (x *DB) migrate(ctx context.Context) error {
	return x.migrateWith(ctx, migrations)
}

// migrateWith applies ms (a prefix of migrations, in tests) as migrate does.
func (x *DB) migrateWith(ctx context.Context, ms []migration) error {
	if x.d.name == Postgres {
		return x.migratePostgres(ctx, ms)
	}
	if x.schemaCurrent(ctx, ms) {
		return nil
	}
	// WAL lets readers run beside the one writer. It is a property of the database file,
	// set outside any transaction; an in-memory database refuses it, harmlessly. A file not
	// yet written takes newPageSize first, on the same connection (the pragma is the
	// connection's); any other keeps its page size.
	if c, err := x.db.Conn(ctx); err == nil {
		c.ExecContext(ctx, "PRAGMA page_size = "+strconv.Itoa(newPageSize))
		c.ExecContext(ctx, "PRAGMA journal_mode = WAL")
		c.Close()
	}
	return x.write(ctx, true, func(t *txn) error {
		t.x, t.tx = nil, nil // DDL, run once: nothing to keep prepared
		if _, err := t.exec(schemaTable); err != nil {
			return err
		}
		have, err := schemaVersion(t, ms)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.version <= have {
				continue
			}
			for _, stmt := range steps(m.sqlite) {
				if _, err := t.exec(stmt); err != nil {
					return fmt.Errorf("migration %d: %w", m.version, err)
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

// schemaCurrent reports whether a SQLite database has every migration of ms already, by
// one read: most opens find it so, and the pragmas and the write transaction of a
// migration (its lock, its schema statements) were 3% of a `llmfs review` of 1,000
// changes. A database not yet made, or behind, or unreadable, takes the migration's path.
func (x *DB) schemaCurrent(ctx context.Context, ms []migration) bool {
	var have int64
	err := x.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM llmfs_schema`).Scan(&have)
	return err == nil && have == ms[len(ms)-1].version
}

const schemaTable = `CREATE TABLE IF NOT EXISTS llmfs_schema (
	version BIGINT PRIMARY KEY,
	applied BIGINT NOT NULL
)`

// The bookkeeping of PostgreSQL's migrations, each table created if missing before the lock
// is taken (so each statement must be safe to run by several migrators at once).
var postgresBookkeeping = []string{
	schemaTable,
	`CREATE TABLE IF NOT EXISTS llmfs_schema_steps (
	version BIGINT NOT NULL,
	step    BIGINT NOT NULL,
	applied BIGINT NOT NULL,
	PRIMARY KEY (version, step)
)`,
	`CREATE TABLE IF NOT EXISTS llmfs_migration_lock (
	id     BIGINT PRIMARY KEY,
	holder TEXT NOT NULL,
	until  BIGINT NOT NULL
)`,
}

// schemaVersion returns the highest migration applied, failing if it is newer than ms's.
func schemaVersion(t *txn, ms []migration) (int64, error) {
	var have int64
	if err := t.queryRow(`SELECT COALESCE(MAX(version), 0) FROM llmfs_schema`).Scan(&have); err != nil {
		return 0, err
	}
	if top := ms[len(ms)-1].version; have > top {
		return 0, fmt.Errorf("database schema version %d is newer than this program's %d", have, top)
	}
	return have, nil
}

// steps splits a migration's text into its statements.
func steps(text string) []string {
	var out []string
	for stmt := range strings.SplitSeq(text, ";\n") {
		if strings.TrimSpace(stmt) != "" {
			out = append(out, stmt)
		}
	}
	return out
}

// migratePostgres applies ms one statement at a time, each in a transaction of its own,
// under the lease of the lock row.
func (x *DB) migratePostgres(ctx context.Context, ms []migration) error {
	t := &txn{ctx: ctx, q: x.db, d: x.d}
	for _, stmt := range postgresBookkeeping {
		if _, err := t.exec(stmt); err != nil {
			// Two migrators creating the same table at once: one of them fails on the
			// catalog's unique key (23505) and finds the table there when it tries again.
			if _, err := t.exec(stmt); err != nil {
				return err
			}
		}
	}
	if have, err := schemaVersion(t, ms); err != nil || have == ms[len(ms)-1].version {
		return err // up to date: the usual case takes no lock
	}
	holder, err := x.lockMigrations(ctx)
	if err != nil {
		return err
	}
	defer t.exec(`DELETE FROM llmfs_migration_lock WHERE id = 1 AND holder = ?`, holder)
	have, err := schemaVersion(t, ms) // another migrator may have gone first
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.version <= have {
			continue
		}
		if err := x.applyPostgres(ctx, t, holder, m); err != nil {
			return fmt.Errorf("migration %d: %w", m.version, err)
		}
	}
	return nil
}

// applyPostgres runs the steps of m not recorded yet, then records m.
func (x *DB) applyPostgres(ctx context.Context, t *txn, holder string, m migration) error {
	done := map[int64]bool{}
	rows, err := t.query(`SELECT step FROM llmfs_schema_steps WHERE version = ?`, m.version)
	if err != nil {
		return err
	}
	for rows.Next() {
		var step int64
		if err := rows.Scan(&step); err != nil {
			rows.Close()
			return err
		}
		done[step] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i, stmt := range steps(m.postgres) {
		if done[int64(i)] {
			continue
		}
		if ok, err := x.renewMigrations(t, holder); err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("lost the migration lock (held longer than %v without a step)", migrationLease)
			}
			return err
		}
		if _, err := t.exec(stmt); err != nil {
			return err
		}
		if _, err := t.exec(`INSERT INTO llmfs_schema_steps (version, step, applied) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			m.version, int64(i), time.Now().UnixNano()); err != nil {
			return err
		}
	}
	_, err = t.exec(`INSERT INTO llmfs_schema (version, applied) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		m.version, time.Now().UnixNano())
	return err
}

// lockMigrations waits until this process holds the migration lock row, and returns the
// name it holds it by.
func (x *DB) lockMigrations(ctx context.Context) (string, error) {
	var b [16]byte
	rand.Read(b[:])
	holder := hex.EncodeToString(b[:])
	t := &txn{ctx: ctx, q: x.db, d: x.d}
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		ok, err := x.renewMigrations(t, holder)
		if err != nil || ok {
			return holder, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(wait):
		}
	}
}

// renewMigrations takes or extends the lease of the lock row for holder, and reports
// whether holder has it: a row held by another whose lease has not run out is left alone.
func (x *DB) renewMigrations(t *txn, holder string) (bool, error) {
	now := time.Now()
	rows, err := t.query(`INSERT INTO llmfs_migration_lock (id, holder, until) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, until = excluded.until
		WHERE llmfs_migration_lock.holder = excluded.holder OR llmfs_migration_lock.until < ?
		RETURNING holder`, holder, now.Add(migrationLease).UnixNano(), now.UnixNano())
	if err != nil {
		return false, err
	}
	defer rows.Close()
	got := rows.Next()
	return got, rows.Err()
}
