//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// ownBlob keeps blobs scanned as sql.RawBytes past Next with the drivers Connect uses, which
// is only safe while modernc.org/sqlite and pgx's stdlib return a new slice for every
// value. This fails if a driver update starts reusing them.
func TestRawBlobsOutliveNext(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		if !x.freshBlobs {
			t.Fatal("Connect's DB copies blobs")
		}
		s := newWorkspace(t, x, Quota{})
		want := map[string][]byte{}
		for i := range 8 {
			name := fmt.Sprintf("f%d", i)
			want[name] = bytes.Repeat([]byte{byte('a' + i)}, 1000+i)
			writeString(t, s, name, string(want[name]), store.WriteOptions{})
		}
		rows, err := x.db.QueryContext(ctx, x.d.rebind(`SELECT n.name, c.data FROM llmfs_nodes n
			JOIN llmfs_chunks c ON c.blob = n.blob AND c.seq = 0 WHERE n.ws = ? AND n.dir = 0 ORDER BY n.name`), s.ws)
		if err != nil {
			t.Fatal(err)
		}
		kept := map[string][]byte{}
		for rows.Next() {
			var name string
			var raw sql.RawBytes
			if err := rows.Scan(&name, &raw); err != nil {
				t.Fatal(err)
			}
			kept[name] = x.ownBlob(raw)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if len(kept) != len(want) {
			t.Fatalf("%d rows, want %d", len(kept), len(want))
		}
		for name, data := range want {
			if !bytes.Equal(kept[name], data) {
				t.Errorf("%s: kept %.20q..., want %.20q...", name, kept[name], data)
			}
		}
	})
}

// A database file Connect creates gets newPageSize, or the page size its DSN names (the
// driver used to set WAL mode first, which fixed a new file's page size at 4 KiB); a file
// made before with another page size keeps it and works as before.
func TestSQLitePageSize(t *testing.T) {
	dir := t.TempDir()
	pageSize := func(x *DB) int {
		var n int
		if err := x.db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tt := range []struct {
		name, create string // create: the DSN the file is made with
		want         int
	}{
		{"new", "", newPageSize},
		{"chosen", "?_pragma=page_size(32768)", 32768},
		{"old", "?_pragma=page_size(8192)", 8192},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".db")
			x, err := Connect(ctx, "sqlite:"+path+tt.create)
			if err != nil {
				t.Fatal(err)
			}
			s, err := x.Workspace(ctx, "w", &Options{Create: true})
			if err != nil {
				t.Fatal(err)
			}
			big := strings.Repeat("x", 3*ChunkSize+7)
			writeString(t, s, "big", big, store.WriteOptions{})
			x.Close()

			// Opened again the default way, as every later process does.
			x, err = Connect(context.Background(), "sqlite:"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			if got := pageSize(x); got != tt.want {
				t.Errorf("page size %d, want %d", got, tt.want)
			}
			var mode string
			if err := x.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
				t.Errorf("journal mode %q, %v; want wal", mode, err)
			}
			s, err = x.Workspace(ctx, "w", nil)
			if err != nil {
				t.Fatal(err)
			}
			writeString(t, s, "small", "hello", store.WriteOptions{})
			for name, want := range map[string]string{"big": big, "small": "hello"} {
				if got := readAll(t, s, name); got != want {
					t.Errorf("%s: %d bytes, want %d", name, len(got), len(want))
				}
			}
		})
	}
}

// New, over a *sql.DB the caller opened on a new file, gives it newPageSize too.
func TestSQLitePageSizeNew(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	x, err := New(ctx, db, SQLite)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var n int
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&n); err != nil || n != newPageSize {
		t.Errorf("page size %d, %v; want %d", n, err, newPageSize)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode %q, %v; want wal", mode, err)
	}
}
