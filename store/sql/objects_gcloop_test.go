//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/blob"
)

// TestCollectEvery: the collection in the background deletes an object nothing refers to
// once older than the grace period, and never one a file refers to, old as it is; it
// stops with its context.
func TestCollectEvery(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		objs := blob.NewMem()
		x.SetBlobs(objs)
		s := newWorkspace(t, x, Quota{})
		kept, gone, young := big("kept", ChunkSize), big("gone", ChunkSize), big("young", ChunkSize)
		for _, c := range [][]byte{gone, young, kept} {
			if _, err := s.WriteFile(ctx, "f", bytes.NewReader(c), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		past := time.Now().Add(-2 * time.Hour)
		objs.Age(blob.ChunkKey(blob.Sum(kept)), past)
		objs.Age(blob.ChunkKey(blob.Sum(gone)), past)
		if _, err := x.db.ExecContext(ctx, x.d.rebind(`UPDATE llmfs_objects SET seen = 0 WHERE hash <> ?`), blob.Sum(young)); err != nil {
			t.Fatal(err)
		}

		bg, stop := context.WithCancel(ctx)
		reports := make(chan GCStats, 100)
		done := make(chan struct{})
		go func() {
			defer close(done)
			x.CollectEvery(bg, 10*time.Millisecond, time.Hour, func(st GCStats, err error) {
				if err != nil {
					t.Error(err)
				}
				select {
				case reports <- st:
				case <-bg.Done():
				}
			})
		}()
		var deleted int
		timeout := time.After(20 * time.Second)
		for deleted == 0 {
			select {
			case st := <-reports:
				deleted += st.Deleted
			case <-timeout:
				stop()
				<-done
				t.Fatal("no collection deleted anything")
			}
		}
		// A few more rounds: none deletes what f refers to, or the young object.
		for range 3 {
			deleted += (<-reports).Deleted
		}
		stop()
		<-done
		if deleted != 1 {
			t.Errorf("%d objects deleted, want 1", deleted)
		}
		if _, err := objs.Get(ctx, blob.ChunkKey(blob.Sum(gone))); err == nil {
			t.Error("the old unreferenced object is still there")
		}
		if _, err := objs.Get(ctx, blob.ChunkKey(blob.Sum(young))); err != nil {
			t.Errorf("the young unreferenced object: %v", err)
		}
		if got := readObj(t, s, "f"); !bytes.Equal(got, kept) {
			t.Fatal("f lost its content")
		}
	})
}
