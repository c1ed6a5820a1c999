//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// Reading a file of many chunks from start to end fetches chunksAhead chunks a query, not
// one (a round trip each on PostgreSQL); a replace seen midway still fails as changed.
func TestReadAheadChunks(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := newWorkspace(t, b.connect(t), Quota{})
		content := bytes.Repeat([]byte("0123456789abcdef"), 20*ChunkSize/16+3) // 21 chunks
		if _, err := s.WriteFile(ctx, "big", bytes.NewReader(content), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		s.chunkQueries.Store(0)
		f, err := s.Open(ctx, "big")
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		f.Close()
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("ReadAll: %d bytes, %v; want %d equal bytes", len(got), err, len(content))
		}
		// Chunk 0 comes with Open; chunks 1-20 in ceil(20/chunksAhead) queries.
		if q, want := s.chunkQueries.Load(), int64((20+chunksAhead-1)/chunksAhead); q != want {
			t.Errorf("reading 21 chunks made %d chunk queries, want %d", q, want)
		}

		// Replaced after the first batch: the chunks fetched are read, the next fails.
		f, err = s.Open(ctx, "big")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, 2*ChunkSize)
		if _, err := io.ReadFull(f, buf); err != nil {
			t.Fatal(err)
		}
		if _, err := s.WriteFile(ctx, "big", bytes.NewReader([]byte("new")), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(f)
		if !errors.Is(err, store.ErrChanged) {
			t.Fatalf("reading on after a replace: %v, want ErrChanged", err)
		}
	})
}
