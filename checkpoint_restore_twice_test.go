package llmfs_test

import (
	"context"
	"testing"

	"github.com/llmfs/llmfs"
)

// Restoring a checkpoint a second time finds nothing to put back: it names no file and
// journals nothing (found by a review: it reported the file again).
func TestRestoreTwice(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		if !ws.Settings().Journaled {
			t.Skip("this backend keeps no journal")
		}
		if _, err := ws.Write(ctx, "a.txt", "one\n", llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.History().Checkpoint(ctx, "c"); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Write(ctx, "a.txt", "two\n", llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if r, err := ws.History().Restore(ctx, "c"); err != nil || len(r.Paths) != 1 {
			t.Fatalf("first restore: %+v, %v", r, err)
		}
		before, _ := ws.History().List(ctx, llmfs.HistoryFilter{})
		r, err := ws.History().Restore(ctx, "c")
		if err != nil || len(r.Paths) != 0 {
			t.Fatalf("second restore: %+v, %v; want nothing put back", r, err)
		}
		if after, _ := ws.History().List(ctx, llmfs.HistoryFilter{}); len(after) != len(before) {
			t.Errorf("the second restore journaled %d entries", len(after)-len(before))
		}
	})
}
