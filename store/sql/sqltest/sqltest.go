//go:build !js && !wasip1

// Package sqltest opens throwaway store/sql workspaces for tests of packages that run on
// the SQL stores.
package sqltest

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	sqlstore "github.com/llmfs/llmfs/store/sql"
	_ "github.com/llmfs/llmfs/store/sql/postgres" // the drivers the workspaces run on
	_ "github.com/llmfs/llmfs/store/sql/sqlite"
)

var seq atomic.Int64

// Workspace creates a workspace with a unique id (prefix, process id, counter) in the
// database dsn, and removes it and closes the database when t ends.
func Workspace(t testing.TB, dsn, prefix string) *sqlstore.Store {
	t.Helper()
	ctx := context.Background()
	db, err := sqlstore.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), seq.Add(1))
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
	return s
}
