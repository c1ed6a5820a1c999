//go:build !js && !wasip1

package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
)

// TestHardLinkJournaled: a hard link made on a host directory through the journal's
// recorder (as the mount's ln does) is recorded as a new file with its content, and undo
// removes the new name only.
func TestHardLinkJournaled(t *testing.T) {
	w, err := host.Open(&llmfs.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	put(t, w, "a.txt", "shared\n")
	err = w.History().Record(bg, "test", "link", func(s store.Store) error {
		return s.(store.HardLinker).Link(bg, "a.txt", "b.txt")
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := mustRaw(t, w, "b.txt"); got != "shared\n" {
		t.Fatalf("b.txt = %q", got)
	}
	c := history(t, w, llmfs.HistoryFilter{Limit: 1})
	if len(c) != 1 || c[0].Op != "link" || c[0].After.Kind != store.File || c[0].After.Hash != store.Hash([]byte("shared\n")) {
		t.Fatalf("history = %+v, want the new name as a file", c)
	}
	if _, err := w.History().Undo(bg, c[0].ID); err != nil {
		t.Fatal(err)
	}
	if exists(w, "b.txt") || mustRaw(t, w, "a.txt") != "shared\n" {
		t.Fatal("undo of the link did not remove just the new name")
	}
}
