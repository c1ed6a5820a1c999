package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/llmfs/llmfs/store/blob"
	"golang.org/x/sync/errgroup"
)

// batchPuts bounds the chunks a [Batch] puts into object storage at once. One put at a
// time made an import wait a round trip to the object store for each full chunk (1,114
// for the Go tree); a few in flight overlap them, and the bound keeps the memory to
// batchPuts chunks.
const batchPuts = 8

// objectPuts puts a batch's chunks into object storage beside the batch's statements.
// As for a single write ([DB.storeChunk]), each chunk's row in llmfs_objects is upserted,
// and so locked until the commit, before its put starts; every put has finished before the
// batch commits (wait), and a failed one fails the batch.
type objectPuts struct {
	g    *errgroup.Group
	ctx  context.Context
	done map[string]bool // the hashes put (or being put) by this batch
}

// storeChunk is [DB.storeChunk] with the put made in the background.
func (b *Batch) storeChunk(data []byte) (inline []byte, ref any, err error) {
	x := b.s.x
	if x.objects == nil || len(data) < ChunkSize {
		return data, nil, nil
	}
	if b.puts == nil {
		g, ctx := errgroup.WithContext(b.ctx)
		g.SetLimit(batchPuts)
		b.puts = &objectPuts{g: g, ctx: ctx, done: map[string]bool{}}
	}
	sum := blob.Sum(data)
	if b.puts.done[sum] {
		// Put already by this batch, whose transaction holds its row.
		return []byte{}, sum, nil
	}
	st, err := b.stmt(`INSERT INTO llmfs_objects (hash, seen) VALUES (?, ?)
		ON CONFLICT (hash) DO UPDATE SET seen = excluded.seen`)
	if err != nil {
		return nil, nil, err
	}
	if _, err := st.ExecContext(b.ctx, sum, time.Now().UnixNano()); err != nil {
		return nil, nil, err
	}
	b.puts.done[sum] = true
	own := slices.Clone(data)
	ctx := b.puts.ctx
	b.puts.g.Go(func() error {
		if _, err := x.objects.PutIfAbsent(ctx, blob.ChunkKey(sum), own); err != nil {
			return fmt.Errorf("keeping a chunk in object storage: %w", err)
		}
		return nil
	})
	return []byte{}, sum, nil
}

// wait returns once every put has finished, with the first error.
func (p *objectPuts) wait() error {
	if p == nil {
		return nil
	}
	return p.g.Wait()
}
