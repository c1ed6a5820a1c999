//go:build !js && !wasip1

package sqlstore

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestMigrateLineCounts: a database of schema 10 holding a journal opens at the current
// schema (11 keeps each change's line counts); its old changes read back not counted (their
// readers count them from the contents), and a change recorded now keeps its counts.
func TestMigrateLineCounts(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		driver, dsn, d := "sqlite", filepath.Join(t.TempDir(), "old.db"), SQLite
		if b.name == "Postgres" {
			driver, dsn, d = "pgx", freshPostgres(t), Postgres
		}
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dl, _ := dialectOf(d)
		x := &DB{db: db, d: dl}
		if err := x.migrateWith(ctx, migrations[:10]); err != nil {
			t.Fatal(err)
		}
		if err := x.Create(ctx, "old", Quota{}); err != nil {
			t.Fatal(err)
		}
		var ws int64
		if err := db.QueryRowContext(ctx, dl.rebind(`SELECT id FROM llmfs_workspaces WHERE name = ?`), "old").Scan(&ws); err != nil {
			t.Fatal(err)
		}
		one := []byte("one\n")
		t1 := &txn{ctx: ctx, q: db, d: dl}
		if _, err := t1.exec(`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state)
			VALUES (?, 1, 1, 1, 'api', 'write', ?, ?, 'absent', '', 0, 'file', ?, ?, 'committed')`,
			ws, []byte("f"), []byte{}, store.Hash(one), len(one)); err != nil {
			t.Fatal(err)
		}
		if _, err := t1.exec(`UPDATE llmfs_workspaces SET journal_seq = 1 WHERE id = ?`, ws); err != nil {
			t.Fatal(err)
		}
		if err := x.migrate(ctx); err != nil {
			t.Fatal(err)
		}
		s, err := x.Workspace(ctx, "old", nil)
		if err != nil {
			t.Fatal(err)
		}
		j := s.Journal()
		err = j.Apply(ctx, "api", func(tx store.JournalTx) error {
			c := &store.Change{Op: "write", Path: "g", Before: store.Version{Kind: store.Absent},
				After: store.FileVersion(one), Lines: store.Lines{Added: 1, Counted: true}}
			return tx.Add(ctx, []*store.Change{c}, [][]byte{one})
		})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := j.Changes(ctx, store.ChangeFilter{})
		if err != nil || len(cs) != 2 {
			t.Fatalf("Changes = %+v, %v", cs, err)
		}
		if got := cs[1].Lines; got.Counted {
			t.Errorf("the change recorded before the migration reads %+v, want not counted", got)
		}
		if got, want := cs[0].Lines, (store.Lines{Added: 1, Counted: true}); got != want {
			t.Errorf("the change recorded after reads %+v, want %+v", got, want)
		}
	})
}
