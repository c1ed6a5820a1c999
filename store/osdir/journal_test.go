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
	sqlstore "github.com/llmfs/llmfs/store/sql"
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

// TestJournalMarksWrittenLater: a landed change's commit mark waits for the next change's
// intent (one sidecar transaction per change rather than two, issue 14.8), and is never
// lost: this process sees its changes committed at once, another handle on the sidecar (as
// another process) once the mark is written, at the latest when the store is closed.
func TestJournalMarksWrittenLater(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	ctx := context.Background()
	s, err := osdir.New(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	write := func(data string) {
		err := s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
			before, _, err := store.Snapshot(ctx, tx, "f", 1<<20)
			if err != nil {
				return err
			}
			c := &store.Change{Op: "write", Path: "f", Before: before, After: store.FileVersion([]byte(data))}
			if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte(data)}); err != nil {
				return err
			}
			_, err = tx.WriteFile(ctx, "f", strings.NewReader(data), store.WriteOptions{})
			return tx.Settle(ctx, []*store.Change{c}, err == nil)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	states := func(j store.Journal) string {
		cs, err := j.Changes(ctx, store.ChangeFilter{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, string(c.State))
		}
		return strings.Join(out, " ")
	}
	for _, data := range []string{"a", "b", "c"} {
		write(data)
	}
	if got := states(s.Journal()); got != "committed committed committed" {
		t.Errorf("this process sees %q, want every change committed", got)
	}
	write("d")
	p, err := s.JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sqlstore.Connect(ctx, "sqlite:"+p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	log, err := db.Log(ctx, "host")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := log.Changes(ctx, store.ChangeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 4 {
		t.Fatalf("%d changes in the sidecar, want 4", len(cs))
	}
	for _, c := range cs {
		if c.State != store.Committed {
			t.Errorf("after Close, change %d is %s in the sidecar, want committed", c.ID, c.State)
		}
	}
}
