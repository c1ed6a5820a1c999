package llmfs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// lastChange returns the newest change of w's journal.
func lastChange(t *testing.T, w *llmfs.Workspace) llmfs.Change {
	t.Helper()
	h, err := w.History().List(context.Background(), llmfs.HistoryFilter{Limit: 1})
	if err != nil || len(h) == 0 {
		t.Fatalf("History: %v, %d changes", err, len(h))
	}
	return h[0]
}

// TestQuotaUndo checks that an undo is held to the quota like any write, and that what it
// frees is booked: undo once bypassed both.
func TestQuotaUndo(t *testing.T) {
	ctx := context.Background()
	eachQuotaStore(t, func(t *testing.T, ps polStore) {
		w, s := ps.open(t, nil, &llmfs.Options{Quota: llmfs.Quota{MaxBytes: 100, MaxFiles: 3}})
		sixty := strings.Repeat("a", 60)
		if _, err := w.Write(ctx, "a.txt", sixty, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Delete(ctx, "a.txt"); err != nil {
			t.Fatal(err)
		}
		del := lastChange(t, w)
		if _, err := w.Write(ctx, "b.txt", sixty, llmfs.WriteOptions{}); err != nil {
			t.Fatalf("write after the delete freed the space: %v", err)
		}
		// Bringing a.txt back would hold 120 bytes.
		_, err := w.History().UndoSet(ctx, del.ID)
		polCode(t, "undo of a delete past the quota", err, llmfs.CodeQuotaExceeded)
		if polExists(s, "a.txt") {
			t.Error("a refused undo brought the file back")
		}

		// An undo that removes a file frees its bytes and its entry for later writes.
		if _, err := w.Delete(ctx, "b.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(ctx, "c.txt", sixty, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.History().UndoSet(ctx, lastChange(t, w).ID); err != nil {
			t.Fatalf("undo of the write of c.txt: %v", err)
		}
		if _, err := w.Write(ctx, "d.txt", sixty, llmfs.WriteOptions{}); err != nil {
			t.Errorf("write after an undo removed a 60-byte file: %v", err)
		}
		if b, n, err := w.Usage(ctx); err != nil || b != 60 || n != 1 {
			t.Errorf("Usage = %d bytes, %d entries, %v; want 60, 1", b, n, err)
		}
	})
}
