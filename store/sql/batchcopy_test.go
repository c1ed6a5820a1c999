//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/llmfs/llmfs/store/blob"
)

// Issue 38: a batch on PostgreSQL writes its new chunks with COPY and its nodes with one
// INSERT of arrays, not INSERTs of thousands of parameters that the server parsed and
// planned for each queue; names taken (files replaced) land as they would one at a time.
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
	if err := write(1); err != nil {
		t.Fatal(err)
	}
	if n := c.copies.Load(); n < 1 {
		t.Errorf("new entries: %d COPYs, want the chunks'", n)
	}
	// Every name is taken now: the INSERT of the nodes finds them, and they are replaced.
	if err := write(2); err != nil {
		t.Fatal(err)
	}
	if n := c.maxArgs.Load(); n > 16 {
		t.Errorf("a statement of %d parameters, want at most 16", n)
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
