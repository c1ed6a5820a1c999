//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestReadsUsePreparedStatements: issue 18.4: every read outside a transaction sent its
// query text through the database's parser again (45% of a SQLite grep's CPU). Reads now
// run statements prepared once per DB; the cache stays bounded and closes with the DB.
func TestReadsUsePreparedStatements(t *testing.T) {
	ctx := context.Background()
	x, err := Connect(ctx, "sqlite:"+filepath.Join(t.TempDir(), "ws.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.Create(ctx, "w", Quota{}); err != nil {
		t.Fatal(err)
	}
	s, err := x.Workspace(ctx, "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteFile(ctx, "a.txt", strings.NewReader("hello\n"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	read := func() {
		f, err := s.Open(ctx, "a.txt")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if b, err := io.ReadAll(f); err != nil || string(b) != "hello\n" {
			t.Fatalf("read %q, %v", b, err)
		}
	}
	read()
	n := x.nstmts.Load()
	if n == 0 {
		t.Fatal("no statement prepared after a read")
	}
	for range 20 {
		read()
	}
	if m := x.nstmts.Load(); m != n {
		t.Errorf("%d statements prepared after 21 reads of one file, %d after one: not reused", m, n)
	}
	x.closeStatements()
	if x.nstmts.Load() != 0 {
		t.Error("statements left after closeStatements")
	}
	read() // prepared again after a close
}
