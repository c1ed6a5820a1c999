//go:build !js && !wasip1

package osdir

import (
	"context"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

func marksHeld() int {
	allMarks.Lock()
	defer allMarks.Unlock()
	return len(allMarks.m)
}

// TestMarksReleasedOnClose: the marks of a journal database stay in allMarks while a
// journal on it is open, shared by every Store of the directory, and leave when the last
// one closes (issue 34: the map grew by one entry per directory ever journaled).
func TestMarksReleasedOnClose(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	ctx := context.Background()
	before := marksHeld()
	write := func(s *Store, name string) {
		t.Helper()
		err := s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
			c := &store.Change{Op: "write", Path: name, Before: store.Version{Kind: store.Absent}, After: store.FileVersion([]byte("x"))}
			if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte("x")}); err != nil {
				return err
			}
			_, err := tx.WriteFile(ctx, name, strings.NewReader("x"), store.WriteOptions{})
			return tx.Settle(ctx, []*store.Change{c}, err == nil)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		s, err := New(t.TempDir(), false)
		if err != nil {
			t.Fatal(err)
		}
		write(s, "f")
		if got := marksHeld(); got != before+1 {
			t.Errorf("with one journal open: %d marks entries, want %d", got, before+1)
		}
		s.Close()
		s.Close() // a second Close releases nothing more
	}
	if got := marksHeld(); got != before {
		t.Errorf("after closing every store: %d marks entries, want %d", got, before)
	}

	// Two Stores of one directory share the entry until both close.
	dir := t.TempDir()
	a, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	write(a, "a")
	write(b, "b")
	if a.journal.j.marks != b.journal.j.marks {
		t.Error("two journals of one directory do not share their marks")
	}
	a.Close()
	if got := marksHeld(); got != before+1 {
		t.Errorf("with one of two journals closed: %d marks entries, want %d", got, before+1)
	}
	b.Close()
	if got := marksHeld(); got != before {
		t.Errorf("after closing both: %d marks entries, want %d", got, before)
	}
}
