//go:build !js && !wasip1

package sqlstore

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestMigrateRefIndexes: a database of schema 13 holding a journal opens at schema 14,
// whose indexes of the journal's references take a prefix of each hash; the journal reads
// back, and its content is deleted exactly when no change refers to it any more, as a
// before or an after version.
func TestMigrateRefIndexes(t *testing.T) {
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
		if err := x.migrateWith(ctx, migrations[:13]); err != nil {
			t.Fatal(err)
		}
		if err := x.Create(ctx, "old", Quota{}); err != nil {
			t.Fatal(err)
		}
		var ws int64
		if err := db.QueryRowContext(ctx, dl.rebind(`SELECT id FROM llmfs_workspaces WHERE name = ?`), "old").Scan(&ws); err != nil {
			t.Fatal(err)
		}
		a, bb, c := []byte("a\n"), []byte("b\n"), []byte("c\n")
		ha, hb, hc := store.Hash(a), store.Hash(bb), store.Hash(c)
		t1 := &txn{ctx: ctx, q: db, d: dl}
		for _, data := range [][]byte{a, bb, c} {
			if _, err := t1.exec(`INSERT INTO llmfs_jblobs (hash, size, data) VALUES (?, ?, ?)`, store.Hash(data), len(data), data); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range []struct {
			id       int64
			bk, bh   string
			ah       string
			from, to []byte
		}{{1, "absent", "", ha, nil, a}, {2, "file", ha, hb, a, bb}} {
			if _, err := t1.exec(`INSERT INTO llmfs_journal (ws, id, cset, time, actor, op, path, other, b_kind, b_hash, b_size, a_kind, a_hash, a_size, state)
				VALUES (?, ?, ?, 1, 'api', 'write', ?, ?, ?, ?, ?, 'file', ?, ?, 'committed')`,
				ws, r.id, r.id, []byte("f"), []byte{}, r.bk, r.bh, len(r.from), r.ah, len(r.to)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := t1.exec(`UPDATE llmfs_workspaces SET journal_seq = 2 WHERE id = ?`, ws); err != nil {
			t.Fatal(err)
		}
		if err := x.migrate(ctx); err != nil {
			t.Fatal(err)
		}
		checkRefIndexes(t, x)

		s, err := x.Workspace(ctx, "old", nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.Journal().Changes(ctx, store.ChangeFilter{})
		if err != nil || len(cs) != 2 || cs[0].Before.Hash != ha || cs[0].After.Hash != hb {
			t.Fatalf("Changes = %+v, %v", cs, err)
		}
		drop := func(hashes ...string) {
			t.Helper()
			if err := x.write(ctx, true, func(t *txn) error { return dropBlobs(t, hashes) }); err != nil {
				t.Fatal(err)
			}
		}
		kept := func(h string, want bool) {
			t.Helper()
			var n int
			if err := t1.queryRow(`SELECT COUNT(*) FROM llmfs_jblobs WHERE hash = ?`, h).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if (n == 1) != want {
				t.Errorf("content %.8s kept: %v, want %v", h, n == 1, want)
			}
		}
		drop(ha, hb, hc)
		kept(ha, true)
		kept(hb, true)
		kept(hc, false)
		// a is now only change 2's before version.
		if _, err := t1.exec(`DELETE FROM llmfs_journal WHERE ws = ? AND id = 1`, ws); err != nil {
			t.Fatal(err)
		}
		drop(ha)
		kept(ha, true)
		if _, err := t1.exec(`DELETE FROM llmfs_journal WHERE ws = ? AND id = 2`, ws); err != nil {
			t.Fatal(err)
		}
		drop(ha, hb)
		kept(ha, false)
		kept(hb, false)
	})
}

// checkRefIndexes checks that the reference indexes of schema 14 are there, that those
// they replace are gone, and, on SQLite, that a lookup of a reference uses them (a table
// scan per deleted content would make pruning grow with the journal).
func checkRefIndexes(t *testing.T, x *DB) {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'llmfs_journal'`
	if x.d.name == Postgres {
		q = `SELECT indexname FROM pg_indexes WHERE tablename = 'llmfs_journal'`
	}
	rows, err := x.db.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		have[n] = true
	}
	rows.Close()
	for name, want := range map[string]bool{"llmfs_journal_bref": true, "llmfs_journal_aref": true,
		"llmfs_journal_bhash": false, "llmfs_journal_ahash": false} {
		if have[name] != want {
			t.Errorf("index %s there: %v, want %v", name, have[name], want)
		}
	}
	if x.d.name != SQLite {
		return
	}
	for col, index := range map[string]string{"b_hash": "llmfs_journal_bref", "a_hash": "llmfs_journal_aref"} {
		var plan strings.Builder
		rows, err := x.db.QueryContext(ctx, `EXPLAIN QUERY PLAN SELECT 1 FROM llmfs_journal WHERE substr(`+col+`, 1, 12) = ? AND `+col+` = ?`, "x", "x")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, parent, unused int
			var detail string
			rows.Scan(&id, &parent, &unused, &detail)
			plan.WriteString(detail + "; ")
		}
		rows.Close()
		if !strings.Contains(plan.String(), index) {
			t.Errorf("a lookup of %s does not use %s: %s", col, index, plan.String())
		}
	}
}
