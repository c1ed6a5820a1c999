//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/llmfs/llmfs/store/blob"
)

// Issue 38: a batch on PostgreSQL writes its new nodes and chunks with COPY, not INSERTs
// of thousands of parameters that the server parsed and planned; names taken (files
// replaced) go by INSERT ... ON CONFLICT, the COPY rolled back to its savepoint, and land
// as they would one at a time.
func TestBatchCopies(t *testing.T) {
	x, c := connectCounted(t)
	x.SetBlobs(blob.NewMem())
	s := newWorkspace(t, x, Quota{})
	files := map[string][]byte{}
	write := func(round int) error {
		return s.Batch(ctx, func(b *Batch) error {
			if err := b.Mkdir("d"); err != nil {
				return err
			}
			for i := range 100 {
				name := fmt.Sprintf("d/f%d", i)
				files[name] = []byte(fmt.Sprintf("round %d file %d\n", round, i))
				if i == 7 {
					files[name] = big(fmt.Sprint("big", round), 2*ChunkSize+round)
				}
				if _, err := b.WriteFile(name, bytes.NewReader(files[name])); err != nil {
					return err
				}
			}
			return nil
		})
	}
	c.inserts.Store(0) // the workspace's own rows
	if err := write(1); err != nil {
		t.Fatal(err)
	}
	if n := c.inserts.Load(); n != 0 || c.copies.Load() < 2 {
		t.Errorf("new entries: %d INSERTs of nodes or chunks and %d COPYs, want none and 2", n, c.copies.Load())
	}
	// Every name is taken now: the COPY of the nodes fails, and the INSERT finds them.
	if err := write(2); err != nil {
		t.Fatal(err)
	}
	if c.inserts.Load() == 0 {
		t.Error("names taken: no INSERT after the COPY failed")
	}
	for name, want := range files {
		if err := readBack(s, name, want); err != nil {
			t.Fatal(err)
		}
	}
	if _, u, err := s.Quota(ctx); err != nil || u.Files != 101 {
		t.Errorf("usage %+v, %v; want 101 entries", u, err)
	}
}
