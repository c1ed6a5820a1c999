package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/llmfs/llmfs/store/blob"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

// batchPuts bounds the chunks a [Batch] puts into object storage at once. One put at a
// time made an import wait a round trip to the object store for each full chunk (1,114
// for the Go tree); a few in flight overlap them.
const batchPuts = 8

// batchPutBytes bounds the content a batch has handed to its puts and not yet put: the
// writer waits beyond it, so a slow object store holds back the batch, not its memory.
// It is more than the chunks of one queue ([queueBytes], plus one file of at most
// [queueWholeMax]).
const batchPutBytes = 32 << 20

// objectPuts puts a batch's chunks into object storage beside the batch's statements.
// As for a single write ([DB.storeChunk]), each chunk's row in llmfs_objects is upserted,
// and so locked until the commit, before its put starts; every put has finished before the
// batch commits (wait), and a failed one fails the batch. The puts run while the writer
// goes on with the batch's next entries and statements.
type objectPuts struct {
	to      blob.Store
	g       *errgroup.Group
	ctx     context.Context
	mem     *semaphore.Weighted
	feeders sync.WaitGroup
	done    map[string]bool // the hashes put (or being put) by this batch
}

// objectPuts returns the batch's puts, made on first use.
func (b *Batch) objectPuts() *objectPuts {
	if b.puts == nil {
		g, ctx := errgroup.WithContext(b.ctx)
		g.SetLimit(batchPuts)
		b.puts = &objectPuts{to: b.s.x.objects, g: g, ctx: ctx, mem: semaphore.NewWeighted(batchPutBytes), done: map[string]bool{}}
	}
	return b.puts
}

// start starts the puts of chunks, whose rows are upserted, and returns once they are
// handed over: at most batchPuts run at once, from a goroutine of their own, so that the
// writer waits only when batchPutBytes are waiting or being put. chunks must not change
// until the puts end.
func (p *objectPuts) start(chunks []objectChunk) error {
	var n int64
	for _, c := range chunks {
		n += int64(len(c.data))
	}
	if err := p.mem.Acquire(p.ctx, min(n, batchPutBytes)); err != nil {
		return p.failed(err)
	}
	p.feeders.Add(1)
	go func() {
		defer p.feeders.Done()
		left := min(n, batchPutBytes)
		for _, c := range chunks {
			give := min(int64(len(c.data)), left)
			left -= give
			p.g.Go(func() error {
				defer p.mem.Release(give)
				if _, err := p.to.PutIfAbsent(p.ctx, blob.ChunkKey(c.sum), c.data); err != nil {
					return fmt.Errorf("keeping a chunk in object storage: %w", err)
				}
				return nil
			})
		}
	}()
	return nil
}

// failed returns the error of the put that failed, which cancelled p.ctx, or else err.
func (p *objectPuts) failed(err error) error {
	if werr := p.wait(); werr != nil {
		return werr
	}
	return err
}

// storeChunk is [DB.storeChunk] with the put made in the background.
func (b *Batch) storeChunk(data []byte) (inline []byte, ref any, err error) {
	x := b.s.x
	if x.objects == nil || len(data) < ChunkSize {
		return data, nil, nil
	}
	p := b.objectPuts()
	sum := blob.Sum(data)
	if p.done[sum] {
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
	p.done[sum] = true
	if err := p.start([]objectChunk{{sum: sum, data: slices.Clone(data)}}); err != nil {
		return nil, nil, err
	}
	return []byte{}, sum, nil
}

// wait returns once every put has finished, with the first error.
func (p *objectPuts) wait() error {
	if p == nil {
		return nil
	}
	p.feeders.Wait()
	return p.g.Wait()
}
