//go:build !js && !wasip1

package osdir

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestScratchWritesUnsynced: a scratch store's writes (new, replaced, exclusive, appended)
// land whole, leave no temporary file listed, and sync nothing; a plain store syncs each.
func TestScratchWritesUnsynced(t *testing.T) {
	ctx := context.Background()
	write := func(s *Store) {
		t.Helper()
		for i := range 20 {
			name := fmt.Sprintf("d/f%d", i)
			for _, c := range []string{"old\n", "new\n"} {
				if _, err := s.WriteFile(ctx, name, strings.NewReader(c), store.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := s.WriteFile(ctx, "d/x", strings.NewReader("x\n"), store.WriteOptions{Mode: store.Exclusive}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.WriteFile(ctx, "d/x", strings.NewReader("y\n"), store.WriteOptions{Mode: store.Append}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewScratch(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Mkdir(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	before := synced.Load()
	write(s)
	if n := synced.Load() - before; n != 0 {
		t.Errorf("a scratch store synced %d files", n)
	}
	es, err := s.ReadDir(ctx, "d")
	if err != nil || len(es) != 21 {
		t.Fatalf("ReadDir: %d entries, %v; want 21", len(es), err)
	}
	for name, want := range map[string]string{"d/f7": "new\n", "d/x": "x\ny\n"} {
		f, err := s.Open(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if !bytes.Equal(b, []byte(want)) {
			t.Errorf("%s: %q, want %q", name, b, want)
		}
	}
	p, err := New(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Mkdir(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	before = synced.Load()
	write(p)
	if n := synced.Load() - before; n < 42 {
		t.Errorf("a plain store synced %d of 42 writes", n)
	}
}
