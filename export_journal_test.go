package llmfs

import (
	"context"
	"sync/atomic"

	"github.com/llmfs/llmfs/store"
)

// CountBlobReads makes w's history count the contents it loads from the journal, and
// returns the count.
func CountBlobReads(w *Workspace) *atomic.Int64 {
	n := new(atomic.Int64)
	w.jr = blobCounter{Journaler: w.jr, n: n}
	return n
}

type blobCounter struct {
	store.Journaler
	n *atomic.Int64
}

func (b blobCounter) Journal() store.Journal { return countedJournal{b.Journaler.Journal(), b.n} }

type countedJournal struct {
	store.Journal
	n *atomic.Int64
}

func (j countedJournal) Blob(ctx context.Context, h string) ([]byte, error) {
	j.n.Add(1)
	return j.Journal.Blob(ctx, h)
}

// UncountedLines is History.Lines for c as if the journal had recorded it without counts:
// counted from the contents the journal keeps.
func UncountedLines(ctx context.Context, h *History, c Change) (added, removed int) {
	c.lines = store.Lines{}
	return h.Lines(ctx, c)
}
