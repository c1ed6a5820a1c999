//go:build !js && !wasip1

package sqlstore

import (
	"database/sql"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestMigrateLinks: a database made before links and modes (schema 10) opens, its files
// get the default mode, and links and modes work in it from then on.
func TestMigrateLinks(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "old.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	dl, _ := dialectOf(SQLite)
	x := &DB{db: db, d: dl}
	var old []migration
	for _, m := range migrations {
		if m.version <= 10 {
			old = append(old, m)
		}
	}
	if err := x.migrateWith(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := x.Create(ctx, "old", Quota{}); err != nil {
		t.Fatal(err)
	}
	var ws int64
	if err := db.QueryRowContext(ctx, `SELECT id FROM llmfs_workspaces WHERE name = ?`, "old").Scan(&ws); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash) VALUES (?, ?, ?, ?, 0, 0, 1, ?)`,
		ws, []byte("f"), []byte("."), []byte("f"), store.Hash(nil)); err != nil {
		t.Fatal(err)
	}
	if err := x.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := x.Workspace(ctx, "old", nil)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := s.Stat(ctx, "f")
	if err != nil || fi.Mode() != 0o644 {
		t.Fatalf("Stat(f) after the migration = %v, %v; want mode 0644", fi, err)
	}
	if err := s.Chmod(ctx, "f", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Symlink(ctx, "f", "ln"); err != nil {
		t.Fatal(err)
	}
	if fi, err := s.Stat(ctx, "ln"); err != nil || fi.Mode() != 0o755 {
		t.Fatalf("Stat(ln) = %v, %v; want f, mode 0755", fi, err)
	}
	if fi, err := s.Lstat(ctx, "ln"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("Lstat(ln) = %v, %v; want a link", fi, err)
	}
}
