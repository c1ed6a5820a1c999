//go:build !js && !wasip1

package sqlstore_test

import (
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestStatAllocs bounds what a Stat of a file allocates on SQLite: it reads the type, size
// and time alone (getInfo). Reading the whole row, its hash and hash state, took 50
// allocations and 1.8 KB a call; the narrow row takes 29 and 1 KB, nearly all of them
// database/sql's and the driver's.
func TestStatAllocs(t *testing.T) {
	s := newWorkspace(t, connectSQLite(t), Quota{})
	writeString(t, s, "f.txt", "hello\n", store.WriteOptions{})
	for range 3 {
		if _, err := s.Stat(ctx, "f.txt"); err != nil { // prepare the statement
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(200, func() {
		if fi, err := s.Stat(ctx, "f.txt"); err != nil || fi.Size() != 6 || fi.IsDir() {
			t.Fatal(fi, err)
		}
	})
	if allocs > 40 {
		t.Errorf("Stat allocates %.0f times a call, want at most 40", allocs)
	}
}
