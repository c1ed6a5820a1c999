//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

// TestLogFold: a batch folded into a Log is read back as Add would have written it; folding
// it again (a crash between the fold's commit and the intent log's truncation) changes
// nothing but the states; later batches settle and drop entries; Seq and Oldest follow.
func TestLogFold(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		x := b.connect(t)
		// A name unique to this run: tests share a PostgreSQL database across runs.
		l, err := x.Log(ctx, testID(t))
		if err != nil {
			t.Fatal(err)
		}
		if seq, err := l.Seq(ctx); err != nil || seq != 0 {
			t.Fatalf("Seq() = %d, %v; want 0", seq, err)
		}
		if old, err := l.Oldest(ctx); err != nil || !old.IsZero() {
			t.Fatalf("Oldest() = %v, %v; want zero", old, err)
		}
		now := time.Now()
		change := func(id, set int64, path, data string) *store.Change {
			return &store.Change{ID: id, Set: set, Time: now, Actor: "t", State: store.Pending, Op: "write", Path: path,
				Before: store.Version{Kind: store.Absent}, After: store.FileVersion([]byte(data))}
		}
		var batch Fold
		for i := int64(1); i <= 40; i++ { // more than one statement's rows
			batch.Changes = append(batch.Changes, change(i, i, "f", string(rune('a'+i%26))))
		}
		batch.Blobs = [][]byte{[]byte("a"), []byte("b")}
		for range 2 {
			if err := l.Fold(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		cs, err := l.Changes(ctx, store.ChangeFilter{})
		if err != nil || len(cs) != 40 || cs[0].ID != 40 || cs[39].ID != 1 || cs[0].State != store.Pending {
			t.Fatalf("Changes() = %d changes, %v", len(cs), err)
		}
		if got := cs[0]; got.Path != "f" || got.Actor != "t" || !got.After.Equal(batch.Changes[39].After) || got.Time.UnixNano() != now.UnixNano() {
			t.Errorf("change 40 = %+v", got)
		}
		if blob, err := l.Blob(ctx, store.Hash([]byte("b"))); err != nil || string(blob) != "b" {
			t.Errorf("Blob(b) = %q, %v", blob, err)
		}
		if err := l.Fold(ctx, Fold{States: map[int64]store.State{1: store.Committed}, Drops: []int64{40}}); err != nil {
			t.Fatal(err)
		}
		if c, err := l.Change(ctx, 1); err != nil || c.State != store.Committed {
			t.Errorf("Change(1) = %+v, %v; want committed", c, err)
		}
		if _, err := l.Change(ctx, 40); err == nil {
			t.Errorf("change 40 still there after its drop")
		}
		// The sequence stays at the highest ID given out, though its change was dropped.
		if seq, err := l.Seq(ctx); err != nil || seq != 40 {
			t.Errorf("Seq() = %d, %v; want 40", seq, err)
		}
		if old, err := l.Oldest(ctx); err != nil || old.UnixNano() != now.UnixNano() {
			t.Errorf("Oldest() = %v, %v; want %v", old, err, now)
		}
	})
}
