//go:build !js && !wasip1

package sqlstore

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// With automatic checkpoints off (as `llmfs ws import` opens its database), CheckpointWAL
// copies the whole log into the database file; on PostgreSQL it does nothing.
func TestCheckpointWAL(t *testing.T) {
	x, err := Connect(ctx, "sqlite:"+filepath.Join(t.TempDir(), "x.db")+"?_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() }) // after newWorkspace's cleanup
	s := newWorkspace(t, x, Quota{})
	writeString(t, s, "f", strings.Repeat("x", 8*ChunkSize), store.WriteOptions{})
	if err := x.CheckpointWAL(ctx); err != nil {
		t.Fatal(err)
	}
	var busy, log, done int
	if err := x.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &done); err != nil {
		t.Fatal(err)
	}
	if log < 8*ChunkSize/4096 || done != log {
		t.Errorf("log of %d frames, %d checkpointed; want the 8 chunks' frames, all", log, done)
	}
	forEach(t, func(t *testing.T, b backend) {
		if err := b.connect(t).CheckpointWAL(ctx); err != nil {
			t.Error(err)
		}
	})
}
