//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

// TestDropUnreferencedWaitsForChangeSets: on PostgreSQL a change set that offers a blob
// kept already inserts nothing and locks nothing; a workspace removed beside it, which
// deletes the content no committed change refers to, must not take that blob from the
// change the set is about to commit. (SQLite's writers are serialized.)
func TestDropUnreferencedWaitsForChangeSets(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		if b.name != "Postgres" {
			t.Skip("SQLite's writers are serialized: no change set runs beside the deletion")
		}
		x := b.connect(t)
		ctx := context.Background()
		blob := []byte(fmt.Sprintf("shared %d %s", os.Getpid(), t.Name()))
		change := func(path string) []*store.Change {
			return []*store.Change{{Op: "write", Path: path, Before: store.Version{Kind: store.Absent}, After: store.FileVersion(blob)}}
		}
		removed := fmt.Sprintf("drop-a-%d-%d", os.Getpid(), wsSeq.Add(1))
		la, err := x.Log(ctx, removed)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := la.Add(ctx, "t", 0, change("f"), [][]byte{blob}, store.Committed, nil); err != nil {
			t.Fatal(err)
		}
		kept := fmt.Sprintf("drop-b-%d-%d", os.Getpid(), wsSeq.Add(1))
		lb, err := x.Log(ctx, kept)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { x.Remove(context.Background(), kept) })

		// The other workspace's change set: the blob offered (kept already: nothing
		// inserted), the change recorded, the commit still to come.
		tx, err := x.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var set int64
		if err := lb.add(&txn{ctx: ctx, q: tx, d: x.d}, "t", &set, change("g"), [][]byte{blob}, store.Committed); err != nil {
			tx.Rollback()
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- x.Remove(ctx, removed) }()
		select {
		case err := <-done:
			// Finished before the change set's commit: it must not have deleted the blob.
			if err != nil {
				t.Error(err)
			}
			done = nil
		case <-time.After(300 * time.Millisecond):
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if done != nil {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		if _, err := lb.Blob(ctx, store.Hash(blob)); err != nil {
			t.Errorf("the committed change's content: %v, want it kept", err)
		}
	})
}
