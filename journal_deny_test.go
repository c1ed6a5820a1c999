package llmfs_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// Review: a move's or copy's other end was shown in the history even where a deny rule
// hides it, so a workspace with that rule learnt the denied path's name from the log.
func TestHistoryHidesDeniedOtherEnd(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "secrets/key.txt", "k\n")
		if _, err := w.Copy(bg, "secrets/key.txt", "pub.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Move(bg, "secrets/key.txt", "moved.txt"); err != nil {
			t.Fatal(err)
		}
		denied := llmfs.New(w.Store(), &llmfs.Options{Root: w.Root(), Deny: []string{"secrets/**"}})
		for _, c := range history(t, denied, llmfs.HistoryFilter{}) {
			if strings.Contains(c.Path, "secrets") || strings.Contains(c.Other, "secrets") {
				t.Errorf("history of a workspace denying secrets/** shows %s %s (other %q)", c.Op, c.Path, c.Other)
			}
		}
	})
}

// Review: undoing a change set that made a directory and a file in it, after someone else
// put another file there, removed the file and then failed on the directory, which was not
// empty: the undo half-applied though it says it touches nothing when it fails.
func TestUndoIntoNonEmptyDirTouchesNothing(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		if _, err := w.Write(bg, "d/new.txt", "n\n", llmfs.WriteOptions{Mode: llmfs.Create}); err != nil {
			t.Fatal(err)
		}
		cs := history(t, w, llmfs.HistoryFilter{})
		put(t, w, "d/other.txt", "o\n")
		if _, err := w.History().UndoSet(bg, cs[0].ID); err == nil {
			t.Fatal("undo removed a directory someone else has since put a file in")
		}
		if got, err := w.Read(bg, "d/new.txt", llmfs.ReadOptions{}); err != nil {
			t.Errorf("a failed undo removed d/new.txt: %v (%v)", err, got)
		}
	})
}
