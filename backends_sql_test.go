//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store/sql/sqltest"

	"github.com/llmfs/llmfs"
)

// postgresEnv names the variable holding the DSN of a PostgreSQL database for the tests
// (see .ci/postgres.sh); without it the core tests run on SQLite only.
const postgresEnv = "LLMFS_TEST_POSTGRES"

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
	return llmfs.New(sqltest.Workspace(t, dsn, "core"), opts)
}

// TestPostgresBackend says whether the core tests above ran on PostgreSQL too.
func TestPostgresBackend(t *testing.T) {
	if os.Getenv(postgresEnv) == "" {
		t.Skipf("core tests ran on osdir, mem and SQLite only: set %s to a DSN (see .ci/postgres.sh) to add PostgreSQL", postgresEnv)
	}
}
