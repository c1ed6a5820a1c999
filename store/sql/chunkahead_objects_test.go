//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/blob"
)

// slowGets is an object store whose gets take delay each, counting those under way and the
// most ever under way at once.
type slowGets struct {
	blob.Store
	delay         time.Duration
	inFlight, max atomic.Int64
}

func (s *slowGets) Get(ctx context.Context, key string) ([]byte, error) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for m := s.max.Load(); n > m && !s.max.CompareAndSwap(m, n); m = s.max.Load() {
	}
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.Store.Get(ctx, key)
}

// TestReadAheadObjects: the chunks a sequential read fetches ahead from object storage come
// in parallel, at most chunksAhead at once, each checked; closing the file midway leaves no
// fetch running. One request at a time, a file of 17 chunks took 17 delays.
func TestReadAheadObjects(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		x := b.connect(t)
		objs := &slowGets{Store: blob.NewMem(), delay: 40 * time.Millisecond}
		x.SetBlobs(objs)
		s := newWorkspace(t, x, Quota{})
		// 17 full chunks, each different (equal chunks are one object).
		var content []byte
		for i := 0; len(content) < 17*ChunkSize; i++ {
			content = fmt.Appendf(content, "line %07d\n", i)
		}
		content = content[:17*ChunkSize]
		if _, err := s.WriteFile(ctx, "big", bytes.NewReader(content), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		f, err := s.Open(ctx, "big")
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		f.Close()
		took := time.Since(start)
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("ReadAll: %d bytes, %v; want %d equal bytes", len(got), err, len(content))
		}
		// Chunk 0 with Open, then two batches: three delays, not 17.
		t.Logf("17 chunks read in %v (%v a get), at most %d gets at once", took, objs.delay, objs.max.Load())
		if m := objs.max.Load(); m < 2 || m > chunksAhead {
			t.Errorf("at most %d gets at once, want 2 to %d", m, chunksAhead)
		}
		if took >= 12*objs.delay {
			t.Errorf("reading 17 chunks took %v, at %v a get: not fetched in parallel", took, objs.delay)
		}

		// Closed after the first chunk of a batch: the fetches of the others stop.
		f, err = s.Open(ctx, "big")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(f, make([]byte, ChunkSize+1)); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if n := objs.inFlight.Load(); n != 0 {
			t.Errorf("%d gets still under way after Close", n)
		}

		// A chunk whose object was corrupted fails the read, ahead or not.
		if err := x.objects.Delete(ctx, blob.ChunkKey(blob.Sum(content[3*ChunkSize:4*ChunkSize]))); err != nil {
			t.Fatal(err)
		}
		f, err = s.Open(ctx, "big")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := io.ReadAll(f); err == nil {
			t.Fatal("reading a file whose chunk 3 is gone from the object store: no error")
		}
	})
}
