//go:build !js && !wasip1

package osdir_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/storetest"
)

func TestJournal(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	storetest.RunJournal(t, func(t *testing.T) store.Journaler {
		dir := t.TempDir()
		s, err := osdir.New(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			s.Close()
			// Issue 14: nothing of the journal inside the root.
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), ".db") {
					t.Errorf("%s appeared inside the root", e.Name())
				}
			}
		})
		return s
	})
}

// TestJournalSettlesAfterCrash: changes a crash left pending are settled when the journal
// is next opened, by what the files hold (issue 14: files and journal agree after kill -9).
func TestJournalSettlesAfterCrash(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	ctx := context.Background()
	dir := t.TempDir()
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	add := func(tx store.JournalTx, name, data string) *store.Change {
		c := &store.Change{Op: "write", Path: name, Before: store.Version{Kind: store.Absent}, After: store.FileVersion([]byte(data))}
		if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte(data)}); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// Record three intents and "crash" before settling any of them.
	err = s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
		add(tx, "landed", "L")
		tx.WriteFile(ctx, "landed", strings.NewReader("L"), store.WriteOptions{})
		add(tx, "never", "N")
		add(tx, "other", "O")
		tx.WriteFile(ctx, "other", strings.NewReader("something else"), store.WriteOptions{})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	cs, err := s2.Journal().Changes(ctx, store.ChangeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]store.State{"landed": store.Committed, "never": store.Unlanded, "other": store.Diverged}
	if len(cs) != 3 {
		t.Fatalf("got %d changes, want 3", len(cs))
	}
	for _, c := range cs {
		if c.State != want[c.Path] {
			t.Errorf("%s: state %q, want %q", c.Path, c.State, want[c.Path])
		}
	}
	p, _ := s2.JournalPath()
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		t.Errorf("journal %s inside the root %s", p, dir)
	}
}
