//go:build !js && !wasip1

package sqlstore

import (
	"database/sql"
	"os"
	"strings"
	"sync"
	"testing"
)

// openFresh opens a fresh PostgreSQL database, unmigrated, or skips.
func openFresh(t *testing.T) *DB {
	t.Helper()
	if os.Getenv(postgresEnv) == "" {
		t.Skipf("PostgreSQL not tested: set %s to a DSN (see .ci/postgres.sh)", postgresEnv)
	}
	db, err := sql.Open("pgx", freshPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &DB{db: db, d: postgresDialect}
}

// TestMigrateNoAdvisoryLock: the schema of a distributed database takes no advisory lock,
// neither to migrate nor to write (issue 38): the migrations take turns by a lock row.
func TestMigrateNoAdvisoryLock(t *testing.T) {
	for _, f := range []string{"migrate.go", "migrate_run.go", "journal.go", "blobdrop.go", "logfold.go", "jparts.go", "batch.go", "dialect.go"} {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"pg_advisory", "nextval("} {
			if strings.Contains(string(text), bad) {
				t.Errorf("%s uses %s", f, bad)
			}
		}
	}
}

// TestMigrateConcurrent: migrators racing on a fresh PostgreSQL database each apply every
// migration at most once, and all of them end with the whole schema.
func TestMigrateConcurrent(t *testing.T) {
	x := openFresh(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() { errs[i] = x.migrate(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("migrator %d: %v", i, err)
		}
	}
	var n, top int64
	if err := x.db.QueryRowContext(ctx, `SELECT COUNT(*), MAX(version) FROM llmfs_schema`).Scan(&n, &top); err != nil {
		t.Fatal(err)
	}
	if want := migrations[len(migrations)-1].version; n != int64(len(migrations)) || top != want {
		t.Fatalf("llmfs_schema holds %d versions up to %d, want %d up to %d", n, top, len(migrations), want)
	}
	var held int64
	x.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM llmfs_migration_lock`).Scan(&held)
	if held != 0 {
		t.Errorf("the lock row is still held after the migrations")
	}
}

// TestMigrateStepsIdempotent: every PostgreSQL step run twice (a migrator killed after a
// step and before its record runs it again) does what running it once does.
func TestMigrateStepsIdempotent(t *testing.T) {
	x := openFresh(t)
	tx := &txn{ctx: ctx, q: x.db, d: x.d}
	for _, m := range migrations {
		for i, stmt := range steps(m.postgres) {
			for range 2 {
				if _, err := tx.exec(stmt); err != nil {
					t.Fatalf("migration %d step %d run again: %v\n%s", m.version, i, err, stmt)
				}
			}
		}
	}
}

// TestMigrateResumes: a migrator killed half-way through a migration, after a step and
// before recording it, leaves a database the next migrator finishes.
func TestMigrateResumes(t *testing.T) {
	x := openFresh(t)
	if err := x.migrateWith(ctx, migrations[:len(migrations)-1]); err != nil {
		t.Fatal(err)
	}
	last := migrations[len(migrations)-1]
	tx := &txn{ctx: ctx, q: x.db, d: x.d}
	first := steps(last.postgres)[0]
	if _, err := tx.exec(first); err != nil {
		t.Fatal(err)
	}
	// The killed migrator's lease, expired.
	if _, err := tx.exec(`INSERT INTO llmfs_migration_lock (id, holder, until) VALUES (1, 'dead', 1)`); err != nil {
		t.Fatal(err)
	}
	if err := x.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var top int64
	if err := x.db.QueryRowContext(ctx, `SELECT MAX(version) FROM llmfs_schema`).Scan(&top); err != nil || top != last.version {
		t.Fatalf("schema version %d, %v; want %d", top, err, last.version)
	}
}
