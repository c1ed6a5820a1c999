//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store/blob"
)

// TestBatchPuts: a batch puts its chunks into object storage several at once, slow puts
// overlapping (but never more than batchPuts); everything reads back, content twice in the batch is put once, and a failed
// put fails the whole batch, leaving none of its files.
func TestBatchPuts(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		objs := &countingPuts{flaky: flaky{Store: blob.NewMem(), delay: 20 * time.Millisecond}}
		x.SetBlobs(objs)
		s := newWorkspace(t, x, Quota{})
		files := map[string][]byte{}
		for i := range 16 {
			files[fmt.Sprint("f", i)] = big(fmt.Sprint("content", i%8), 2*ChunkSize+i)
		}
		err := s.Batch(ctx, func(b *Batch) error {
			for name, c := range files {
				if _, err := b.WriteFile(name, bytes.NewReader(c)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := objs.most.Load(); n < 2 || n > batchPuts {
			t.Errorf("at most %d puts in flight, want 2 to %d", n, batchPuts)
		}
		if n := objs.puts.Load(); n != 16 {
			t.Errorf("%d puts, want 16 (one per distinct chunk)", n)
		}
		for name, c := range files {
			if err := readBack(s, name, c); err != nil {
				t.Fatal(err)
			}
		}

		objs.every = 3
		err = s.Batch(ctx, func(b *Batch) error {
			for i := range 8 {
				if _, err := b.WriteFile(fmt.Sprint("g", i), bytes.NewReader(big(fmt.Sprint("new", i), 2*ChunkSize))); err != nil {
					return err
				}
			}
			return nil
		})
		if !errors.Is(err, errInjected) {
			t.Fatalf("a batch whose put failed: %v, want the injected error", err)
		}
		for i := range 8 {
			if _, err := s.Stat(ctx, fmt.Sprint("g", i)); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("g%d after the failed batch: %v, want none", i, err)
			}
		}
	})
}

// countingPuts counts the puts and the most in flight at once.
type countingPuts struct {
	flaky
	puts, now, most atomic.Int64
}

func (c *countingPuts) PutIfAbsent(ctx context.Context, key string, data []byte) (bool, error) {
	c.puts.Add(1)
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
	}
	return c.flaky.PutIfAbsent(ctx, key, data)
}
