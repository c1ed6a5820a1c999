//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/llmfs/llmfs"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// postgresEnv names the variable holding the DSN of a PostgreSQL database for the tests
// (see .ci/postgres.sh); without it the core tests run on SQLite only.
const postgresEnv = "LLMFS_TEST_POSTGRES"

var sqlWorkspaces atomic.Int64

// sqlBackends are store/sql on SQLite, and on PostgreSQL when postgresEnv is set: each test
// gets a workspace of its own, removed at cleanup.
func sqlBackends() []backend {
	out := []backend{{"sqlite", func(t *testing.T, opts *llmfs.Options) *llmfs.Workspace {
		return sqlWorkspace(t, "sqlite:"+filepath.Join(t.TempDir(), "llmfs.db"), opts)
	}}}
	if dsn := os.Getenv(postgresEnv); dsn != "" {
		out = append(out, backend{"postgres", func(t *testing.T, opts *llmfs.Options) *llmfs.Workspace {
			return sqlWorkspace(t, dsn, opts)
		}})
	}
	return out
}

func sqlWorkspace(t *testing.T, dsn string, opts *llmfs.Options) *llmfs.Workspace {
	t.Helper()
	ctx := context.Background()
	db, err := sqlstore.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprintf("core-%d-%d", os.Getpid(), sqlWorkspaces.Add(1))
	s, err := db.Workspace(ctx, id, &sqlstore.Options{Create: true})
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Remove(ctx, id); err != nil {
			t.Errorf("remove workspace %s: %v", id, err)
		}
		db.Close()
	})
	return llmfs.New(s, opts)
}

// TestPostgresBackend says whether the core tests above ran on PostgreSQL too.
func TestPostgresBackend(t *testing.T) {
	if os.Getenv(postgresEnv) == "" {
		t.Skipf("core tests ran on osdir, mem and SQLite only: set %s to a DSN (see .ci/postgres.sh) to add PostgreSQL", postgresEnv)
	}
}
