package search

import (
	"context"
	"sync"
	"unsafe"

	"github.com/llmfs/llmfs/store"
)

// The search of a tree: a walker hands files in batches to workers, and a collector hands
// their entries on in walk order.

// A job is a batch of files on its way from the walker to a worker and back to the
// collector. Files go to the workers in batches, in walk order, and come back through
// order in the same order: one hand-off per batch rather than per file keeps the cost of
// waking goroutines low on trees of many small files. The entries go to yield as soon as
// their batch and those before it are done, so what is held is the output of the batches
// finished ahead of the one awaited, which outAhead bounds. A file whose output passes
// partBytes hands it on in parts, each waiting until the collector takes it: the
// collector takes a batch's parts only once the batches before it are done, so a worker
// waits there and one file's output is never held whole.
type job struct {
	files []file
	outs  [][]Entry
	seq   int64 // the batch's place in walk order
	size  int64 // the bytes of output in outs, counted into ahead
	parts chan part
	done  chan struct{}
}

// grepWorker searches with sr the files, opened by wk, of each batch from jobs, until jobs is closed,
// and closes each batch's done once its entries are in its outs (or ctx is done).
func grepWorker(ctx context.Context, wk *walker, sr *searcher, jobs <-chan *job, ahead *byteGate) {
	var j *job
	fileNo := 0
	sr.part = func(out []Entry) bool {
		select {
		case j.parts <- part{file: fileNo, entries: out}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for j = range jobs {
		j.outs = make([][]Entry, len(j.files))
		for i, f := range j.files {
			if ctx.Err() != nil {
				break
			}
			fileNo = i
			if ce, ok := f.de.(store.ContentEntry); ok {
				// Listed with its content (a database store): no open.
				j.outs[i] = sr.searchContent(ctx, ce.Content(), f.name)
				j.files[i] = file{} // let the content go before the batch is collected
			} else {
				if r, err := wk.open(ctx, f); err == nil {
					j.outs[i] = sr.search(ctx, r, f.name)
					r.Close()
				}
			}
			if out := j.outs[i]; len(out) > 0 {
				n := entriesSize(out)
				j.size += n
				if !ahead.take(j.seq, n) {
					break
				}
			}
		}
		close(j.done)
	}
}

// feedJobs walks the tree at name (real on the host) with wk and hands its files on in
// batches, each to order (the collector's queue) and then to jobs (the workers'), and
// closes both when done. It returns the walk's error.
func feedJobs(ctx context.Context, wk *walker, name, real string, jobs, order chan<- *job) error {
	defer close(jobs)
	defer close(order)
	var batch []file
	var seq int64
	send := func() bool {
		j := &job{files: batch, seq: seq, parts: make(chan part), done: make(chan struct{})}
		batch = nil
		seq++
		select {
		case order <- j:
		case <-ctx.Done():
			return false
		}
		select {
		case jobs <- j:
		case <-ctx.Done():
			return false
		}
		return true
	}
	err := wk.walk(name, real, func(f file) bool {
		if batch == nil {
			batch = make([]file, 0, batchSize) // one allocation per batch, not five
		}
		batch = append(batch, f)
		return len(batch) < batchSize || send()
	})
	if len(batch) > 0 {
		send()
	}
	return err
}

// collectJobs hands on through add the entries of the batches from order, in walk order,
// until order is closed, add says stop or ctx is done.
func collectJobs(ctx context.Context, order <-chan *job, ahead *byteGate, add func(out []Entry, more bool) bool) {
	for j := range order {
		ahead.await(j.seq)
		next := 0    // the first file of j whose entries are not handed on
		parted := -1 // the file of j that handed on the last part
	batch:
		for {
			select {
			case p := <-j.parts:
				// The files before p's are done: the worker wrote their entries before
				// it sent p.
				for ; next < p.file; next++ {
					out := j.outs[next]
					j.outs[next] = nil
					if !add(out, next == parted) {
						return
					}
				}
				more := parted == p.file
				parted = p.file
				if !add(p.entries, more) {
					return
				}
			case <-j.done:
				break batch
			case <-ctx.Done():
				return
			}
		}
		for ; next < len(j.outs); next++ {
			out := j.outs[next]
			j.outs[next] = nil
			if !add(out, next == parted) {
				return
			}
		}
		ahead.give(j.size)
	}
}

// outAhead bounds the bytes of output (lines' text) the workers may hold finished ahead
// of the batch the output waits for. A worker that would pass it waits; what one file
// holds (at most partBytes and a line, see [part]) is always let through, so a single
// huge result still completes.
const outAhead = 1 << 20

// part is a piece of one file's entries, handed on while the file is searched.
type part struct {
	file    int // the file's index in its batch
	entries []Entry
}

// entrySize is the memory of an entry without its text.
const entrySize = int(unsafe.Sizeof(Entry{}))

// entriesSize is the memory an entry list holds, roughly: the entries and their text.
func entriesSize(out []Entry) int64 {
	n := int64(len(out)) * int64(entrySize)
	for i := range out {
		n += int64(len(out[i].Text))
	}
	return n
}

// byteGate bounds the bytes of output held by batches finished ahead of the batch the
// output waits for. A take waits while the bytes held would pass the limit, except for
// the batch awaited (its worker must never wait on the batches after it, which wait on
// it) or when nothing is held.
type byteGate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	held    int64
	limit   int64
	next    int64 // the batch the output waits for
	stopped bool
}

func newByteGate(limit int64) *byteGate {
	g := &byteGate{limit: limit}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// take adds n bytes of the batch seq to what is held, after waiting while that would pass
// the limit. It returns false, without taking, once the gate is stopped.
func (g *byteGate) take(seq, n int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.stopped && seq != g.next && g.held > 0 && g.held+n > g.limit {
		g.cond.Wait()
	}
	if g.stopped {
		return false
	}
	g.held += n
	return true
}

// await says that the output now waits for the batch seq.
func (g *byteGate) await(seq int64) {
	g.mu.Lock()
	g.next = seq
	g.mu.Unlock()
	g.cond.Broadcast()
}

// give returns n bytes taken before.
func (g *byteGate) give(n int64) {
	if n == 0 {
		return
	}
	g.mu.Lock()
	g.held -= n
	g.mu.Unlock()
	g.cond.Broadcast()
}

// stop lets every take return, false, now and later.
func (g *byteGate) stop() {
	g.mu.Lock()
	g.stopped = true
	g.mu.Unlock()
	g.cond.Broadcast()
}

// batchSize is the number of files handed to a worker at once.
const batchSize = 16

// orderAhead is how many batches the workers may finish ahead of the one the collector
// waits for. Trees cluster their large files (a directory of generated headers), and
// while one worker is inside them the others must not run out of work.
const orderAhead = 4096
