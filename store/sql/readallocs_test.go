//go:build !js && !wasip1

package sqlstore_test

import (
	"io"
	"strings"
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

// TestOpenAllocs bounds what opening and reading a small file allocates on SQLite: the
// file's hash is read only for content the journal keeps (blob 0), and queryOne scans
// content in place. Before, 44 allocations (io.Copy's buffer among them); now 41.
func TestOpenAllocs(t *testing.T) {
	s := newWorkspace(t, connectSQLite(t), Quota{})
	content := strings.Repeat("x", 4000)
	writeString(t, s, "f.txt", content, store.WriteOptions{})
	read := func() {
		f, err := s.Open(ctx, "f.txt")
		if err != nil {
			t.Fatal(err)
		}
		if n, err := io.Copy(io.Discard, f); err != nil || n != int64(len(content)) {
			t.Fatal(n, err)
		}
		f.Close()
	}
	read() // prepare the statement
	if allocs := testing.AllocsPerRun(200, read); allocs > 42 {
		t.Errorf("Open and Read allocate %.0f times a file, want at most 42", allocs)
	}
}
