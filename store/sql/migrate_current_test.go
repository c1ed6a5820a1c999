//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// TestMigrateCurrentTakesNoLock: migrating a SQLite database that has every migration
// already is one read, with no write transaction, so it neither waits for nor blocks a
// writer (every open of a review layer, `llmfs review` included, migrates).
func TestMigrateCurrentTakesNoLock(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cur.db")
	db, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	dl, _ := dialectOf(SQLite)
	x := &DB{db: db, d: dl}
	if err := x.migrate(ctx); err != nil {
		t.Fatal(err)
	}

	// Another connection holds the write lock.
	holder, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Close() })
	conn, err := holder.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")

	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	start := time.Now()
	if err := x.migrate(short); err != nil {
		t.Fatalf("migrate beside a writer: %v (after %v)", err, time.Since(start))
	}
}
