//go:build !js && !wasip1

package sqlstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Open a workspace in a SQLite file, creating both if needed, and use it as a store.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "llmfs-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	dsn := "sqlite:" + filepath.Join(dir, "workspaces.db") // or "postgres://..."
	s, err := sqlstore.OpenDSN(ctx, dsn, "session-42", &sqlstore.Options{
		Create: true,
		Quota:  sqlstore.Quota{MaxBytes: 10 << 20, MaxFiles: 1000},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	s.Mkdir(ctx, "notes")
	s.WriteFile(ctx, "notes/todo.md", strings.NewReader("- write tests\n"), store.WriteOptions{})
	des, _ := s.ReadDir(ctx, "notes")
	for _, de := range des {
		fi, _ := de.Info()
		fmt.Println(de.Name(), fi.Size())
	}
	_, usage, _ := s.Quota(ctx)
	fmt.Printf("%d bytes in %d entries\n", usage.Bytes, usage.Files)
	// Output:
	// todo.md 14
	// 14 bytes in 2 entries
}

// Manage the workspaces of a database.
func ExampleDB() {
	ctx := context.Background()
	db, err := sqlstore.Connect(ctx, "sqlite::memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	db.Create(ctx, "alice", sqlstore.Quota{})
	db.Create(ctx, "bob", sqlstore.Quota{MaxBytes: 1 << 20})
	ws, _ := db.List(ctx)
	for _, w := range ws {
		fmt.Println(w.ID, w.Quota.MaxBytes)
	}
	db.Remove(ctx, "alice")
	_, err = db.Workspace(ctx, "alice", nil)
	fmt.Println(err)
	// Output:
	// alice 0
	// bob 1048576
	// open workspace alice: file does not exist
}
