//go:build !js && !wasip1

package sqlstore

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestMigrateJournal brings a database of schema 5 holding a journal to the current
// schema (6 rebuilt the journal's tables on SQLite and added journal_bytes): the changes
// and their content are all there, the bound on the content counts them, and journaling
// goes on from the last id.
func TestMigrateJournal(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		var driver, dsn string
		switch b.name {
		case "SQLite":
			driver, dsn = "sqlite", filepath.Join(t.TempDir(), "old.db")
		case "Postgres":
			driver, dsn = "pgx", freshPostgres(t)
		}
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		d := SQLite
		if driver == "pgx" {
			d = Postgres
		}
		dl, _ := dialectOf(d)
		x := &DB{db: db, d: dl}
		if err := x.migrateWith(ctx, migrations[:5]); err != nil {
			t.Fatal(err)
		}
		if err := x.Create(ctx, "old", Quota{}); err != nil {
			t.Fatal(err)
		}
		var ws int64
		if err := db.QueryRowContext(ctx, dl.rebind(`SELECT id FROM llmfs_workspaces WHERE name = ?`), "old").Scan(&ws); err != nil {
			t.Fatal(err)
		}
		one, two := []byte("one\n"), []byte("two two\n")
		t1 := &txn{ctx: ctx, q: db, d: dl}
		for _, q := range []struct {
			q    string
			args []any
		}{
			{`INSERT INTO llmfs_jblobs (hash, size, data) VALUES (?, ?, ?), (?, ?, ?)`,
				[]any{store.Hash(one), len(one), one, store.Hash(two), len(two), two}},
			{`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state)
				VALUES (?, 1, 1, 1, 'api', 'write', ?, ?, 'absent', '', 0, 'file', ?, ?, 'committed'),
				(?, 2, 2, 2, 'api', 'write', ?, ?, 'file', ?, ?, 'file', ?, ?, 'committed')`,
				[]any{ws, []byte("f"), []byte{}, store.Hash(one), len(one),
					ws, []byte("f"), []byte{}, store.Hash(one), len(one), store.Hash(two), len(two)}},
			{`UPDATE llmfs_workspaces SET journal_seq = 2 WHERE id = ?`, []any{ws}},
		} {
			if _, err := t1.exec(q.q, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		if err := x.migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if d == SQLite {
			for _, table := range []string{"llmfs_journal", "llmfs_jblobs"} {
				var text string
				db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE name = ?`, table).Scan(&text)
				if !strings.Contains(text, "WITHOUT ROWID") {
					t.Errorf("%s is not a WITHOUT ROWID table: %s", table, text)
				}
			}
		}
		s, err := x.Workspace(ctx, "old", nil)
		if err != nil {
			t.Fatal(err)
		}
		j := s.Journal()
		cs, err := j.Changes(ctx, store.ChangeFilter{})
		if err != nil || len(cs) != 2 || cs[0].ID != 2 || cs[0].After.Hash != store.Hash(two) {
			t.Fatalf("Changes after migrating = %+v, %v", cs, err)
		}
		if got, err := j.Blob(ctx, store.Hash(two)); err != nil || string(got) != string(two) {
			t.Fatalf("Blob = %q, %v", got, err)
		}
		var bound int64
		if err := db.QueryRowContext(ctx, dl.rebind(`SELECT journal_bytes FROM llmfs_workspaces WHERE id = ?`), ws).Scan(&bound); err != nil {
			t.Fatal(err)
		}
		if want := int64(2*len(one) + len(two)); bound != want {
			t.Fatalf("journal_bytes = %d, want %d", bound, want)
		}
		err = j.Apply(ctx, "api", func(tx store.JournalTx) error {
			c := &store.Change{Op: "write", Path: "g", Before: store.Version{Kind: store.Absent}, After: store.FileVersion(one)}
			if err := tx.Add(ctx, []*store.Change{c}, [][]byte{one}); err != nil {
				return err
			}
			_, err := tx.WriteFile(ctx, "g", strings.NewReader(string(one)), store.WriteOptions{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if last, err := j.Last(ctx); err != nil || last != 3 {
			t.Fatalf("Last = %d, %v; want 3", last, err)
		}
	})
}
