package llmfs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// Issue 40.3: a listing of the whole journal was read into memory before its first line
// was printed. History.All reads it a page at a time: across pages, with changes the
// workspace hides in between, it yields what List does, in the same order, and stops
// when the caller stops.
func TestHistoryAllPages(t *testing.T) {
	w := llmfs.New(mem.New(), nil)
	// 700 changes (more than two pages), every third under secrets/.
	err := w.History().Record(bg, "test", llmfs.ChangeWrite, func(s store.Store) error {
		if err := s.Mkdir(bg, "secrets"); err != nil {
			return err
		}
		for i := range 700 {
			name := fmt.Sprintf("f%d.txt", i)
			if i%3 == 0 {
				name = "secrets/" + name
			}
			if _, err := s.WriteFile(bg, name, strings.NewReader("x\n"), store.WriteOptions{}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	denied := llmfs.New(w.Store(), &llmfs.Options{Deny: []string{"secrets/**"}})
	want := history(t, denied, llmfs.HistoryFilter{})
	if len(want) < 460 {
		t.Fatalf("List = %d changes; want the 466 not denied", len(want))
	}
	var got []llmfs.Change
	for c, err := range denied.History().All(bg, llmfs.HistoryFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	if len(got) != len(want) {
		t.Fatalf("All yielded %d changes; List returns %d", len(got), len(want))
	}
	for i := range got {
		if got[i].ID != want[i].ID || strings.Contains(got[i].Path, "secrets") {
			t.Fatalf("All[%d] = %d %s; want %d %s", i, got[i].ID, got[i].Path, want[i].ID, want[i].Path)
		}
	}
	// A limit counts the changes shown; a caller that stops early gets no more.
	n := 0
	for _, err := range denied.History().All(bg, llmfs.HistoryFilter{Limit: 300}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 300 {
		t.Errorf("All with Limit 300 yielded %d changes", n)
	}
	n = 0
	for range denied.History().All(bg, llmfs.HistoryFilter{}) {
		if n++; n == 10 {
			break
		}
	}
	if n != 10 {
		t.Errorf("All after a break: %d", n)
	}
}

// A workspace without a journal: All yields the error List returns.
func TestHistoryAllNoJournal(t *testing.T) {
	w := llmfs.New(mem.New(), &llmfs.Options{NoJournal: true})
	for _, err := range w.History().All(bg, llmfs.HistoryFilter{}) {
		if llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
			t.Errorf("All on no journal: %v; want INVALID_ARGUMENT", err)
		}
	}
}

// TestHistoryListLimitDenied: issue 40.3, List applied its limit before hiding the denied
// changes, so a listing whose newest changes were denied came back short. It reads on
// until it has the changes asked for, or the journal ends.
func TestHistoryListLimitDenied(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		for i := range 5 {
			put(t, w, fmt.Sprintf("open%d.txt", i), "x\n")
		}
		for i := range 20 {
			put(t, w, fmt.Sprintf("secrets/f%d.txt", i), "x\n")
		}
		denied := llmfs.New(w.Store(), &llmfs.Options{Root: w.Root(), Deny: []string{"secrets/**"}})
		if got := history(t, denied, llmfs.HistoryFilter{Limit: 3}); len(got) != 3 || w.Paths().Rel(got[0].Path) != "open4.txt" {
			t.Errorf("List with Limit 3 = %s; want open4.txt, open3.txt, open2.txt", ops(w, got))
		}
		if got := history(t, denied, llmfs.HistoryFilter{Limit: 10}); len(got) != 5 {
			t.Errorf("List with Limit 10 = %s; want the 5 changes shown", ops(w, got))
		}
	})
}
