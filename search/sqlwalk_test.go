//go:build !js && !wasip1

package search

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// walkCountingStore counts the walks a grep asks a tree lister for and the listings it
// asks the store for one by one.
type walkCountingStore struct {
	*sqlstore.Store
	walks, listings atomic.Int64
}

func (c *walkCountingStore) ContentWalk() store.DirContentLister {
	c.walks.Add(1)
	return c.Store.ContentWalk()
}

func (c *walkCountingStore) ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error) {
	c.listings.Add(1)
	return c.Store.ReadDirContent(ctx, name)
}

// Issue 40.2: a grep of a database store listed each directory with a query of its own.
// It now asks the store for one walk of the tree (store.TreeContentLister), which on
// PostgreSQL lists the 30 directories below with one query, and finds what a grep of the
// plain store finds. PostgreSQL runs when LLMFS_TEST_POSTGRES holds a DSN.
func TestGrepSQLContentWalk(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		testGrepContentWalk(t, "sqlite:"+filepath.Join(t.TempDir(), "db"), "ws")
	})
	t.Run("Postgres", func(t *testing.T) {
		dsn := os.Getenv("LLMFS_TEST_POSTGRES")
		if dsn == "" {
			t.Skip("PostgreSQL not tested: set LLMFS_TEST_POSTGRES to a DSN (see .ci/postgres.sh)")
		}
		id := fmt.Sprintf("search-walk-%d", os.Getpid())
		t.Cleanup(func() {
			if x, err := sqlstore.Connect(context.Background(), dsn); err == nil {
				x.Remove(context.Background(), id)
				x.Close()
			}
		})
		testGrepContentWalk(t, dsn, id)
	})
}

func testGrepContentWalk(t *testing.T, dsn, id string) {
	ctx := context.Background()
	s, err := sqlstore.OpenDSN(ctx, dsn, id, &sqlstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 10 {
		for _, d := range []string{fmt.Sprintf("d%d", i), fmt.Sprintf("d%d/sub", i), fmt.Sprintf("d%d/sub/empty", i)} {
			if err := s.Mkdir(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		for j := range 4 {
			body := strings.Repeat(fmt.Sprintf("line %d of %d\n", j, i), 50) + "needle\n"
			if _, err := s.WriteFile(ctx, fmt.Sprintf("d%d/sub/f%d.txt", i, j), strings.NewReader(body), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	cs := &walkCountingStore{Store: s}
	opts := GrepOptions{Pattern: "needle|of 3$", Mode: Content, LineNumbers: true, Threads: 2}
	got, err := Grep(ctx, cs, ".", opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Grep(ctx, plainStore{s}, ".", opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Entries, want.Entries) || len(got.Entries) != 10*4+4*50 {
		t.Fatalf("grep through the walk found %d entries, the plain store %d", len(got.Entries), len(want.Entries))
	}
	if w, l := cs.walks.Load(), cs.listings.Load(); w != 1 || l != 0 {
		t.Errorf("the grep asked for %d walks and %d listings one by one, want 1 and 0", w, l)
	}
}
