//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// postgresEnv names the environment variable holding the DSN of a PostgreSQL database the
// tests may use (see .ci/postgres.sh). Without it the PostgreSQL tests are skipped.
const postgresEnv = "LLMFS_TEST_POSTGRES"

var wsSeq atomic.Int64

// A backend opens test databases of one dialect.
type backend struct {
	name string
	// connect returns a DB for the test, closed at cleanup. Calls within one test share
	// the database (so they can simulate several processes); tests do not.
	connect func(t testing.TB) *DB
}

// backends returns SQLite, and PostgreSQL when postgresEnv is set.
func backends(t testing.TB) []backend {
	out := []backend{{name: "SQLite", connect: connectSQLite}}
	if os.Getenv(postgresEnv) != "" {
		out = append(out, backend{name: "Postgres", connect: connectPostgres})
	}
	return out
}

// forEach runs fn as a subtest per backend, saying why PostgreSQL is skipped.
func forEach(t *testing.T, fn func(t *testing.T, b backend)) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) { fn(t, b) })
	}
	if os.Getenv(postgresEnv) == "" {
		t.Run("Postgres", func(t *testing.T) {
			t.Skipf("PostgreSQL not tested: set %s to a DSN (see .ci/postgres.sh)", postgresEnv)
		})
	}
}

func connectSQLite(t testing.TB) *DB {
	t.Helper()
	// One database file per test: later calls in the same test open it again.
	path := filepath.Join(testDir(t), "llmfs.db")
	x, err := Connect(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

var (
	dirsMu sync.Mutex
	dirs   = map[testing.TB]string{}
)

// testDir returns one temporary directory per test, the same on every call.
func testDir(t testing.TB) string {
	dirsMu.Lock()
	defer dirsMu.Unlock()
	if d, ok := dirs[t]; ok {
		return d
	}
	d := t.TempDir()
	dirs[t] = d
	t.Cleanup(func() {
		dirsMu.Lock()
		defer dirsMu.Unlock()
		delete(dirs, t)
	})
	return d
}

func connectPostgres(t testing.TB) *DB {
	t.Helper()
	x, err := Connect(context.Background(), os.Getenv(postgresEnv))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// newWorkspace creates a workspace with a name unique to this test run and removes it at
// cleanup, so tests can share a PostgreSQL database.
// testID returns a new workspace id for the test: an id is 1 to 64 of A-Z a-z 0-9 . _ -
// (CheckID), so the test's name is made to fit, with room for a suffix such as "-fork".
func testID(t testing.TB) string {
	id := fmt.Sprintf("test-%d-%d-%s", os.Getpid(), wsSeq.Add(1), strings.Map(func(r rune) rune {
		if r < 128 && CheckID(string(r)) == nil {
			return r
		}
		return '_'
	}, t.Name()))
	return id[:min(len(id), MaxIDLength-16)]
}

func newWorkspace(t testing.TB, x *DB, q Quota) *Store {
	t.Helper()
	ctx := context.Background()
	id := testID(t)
	if err := x.Create(ctx, id, q); err != nil {
		t.Fatal(err)
	}
	s, err := x.Workspace(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := x.Remove(context.Background(), id); err != nil {
			t.Errorf("remove workspace: %v", err)
		}
	})
	return s
}
