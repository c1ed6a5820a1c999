package llmfs

import (
	"context"
	"iter"

	"github.com/llmfs/llmfs/store"
)

// historyPage is how many journal entries [History.All] reads at a time: enough to keep
// the queries few, small enough that memory stays flat however long the journal is.
const historyPage = 1000

// All yields the changes [History.List] returns for f, newest first, reading the journal
// a page at a time as the caller ranges: a listing of the whole journal is printed as it
// is read, in flat memory, and a caller that stops early reads no further. f.Limit counts
// the changes yielded (those the workspace shows). An error ends the sequence, yielded
// with a zero Change.
func (h *History) All(ctx context.Context, f HistoryFilter) iter.Seq2[Change, error] {
	return func(yield func(Change, error) bool) {
		w := h.w
		j, err := w.history()
		if err != nil {
			yield(Change{}, err)
			return
		}
		sf, err := w.changeFilter(ctx, f)
		if err != nil {
			yield(Change{}, err)
			return
		}
		n := 0
		for {
			// No more than the limit still wants: a short log reads a short page.
			sf.Limit = historyPage
			if f.Limit > 0 {
				sf.Limit = min(historyPage, f.Limit-n)
			}
			cs, err := j.Changes(ctx, sf)
			if err != nil {
				yield(Change{}, storeError(f.Path, err))
				return
			}
			for i := range cs {
				c, ok := w.change(&cs[i])
				if !ok {
					continue
				}
				if !yield(c, nil) {
					return
				}
				if n++; f.Limit > 0 && n >= f.Limit {
					return
				}
			}
			if len(cs) < sf.Limit {
				return
			}
			// The next page: the changes older than the last one read.
			sf.Upto = cs[len(cs)-1].ID - 1
			if sf.Upto <= 0 {
				return
			}
		}
	}
}

// changeFilter turns f into the store's filter, checking that f.Path may be read.
func (w *Workspace) changeFilter(ctx context.Context, f HistoryFilter) (store.ChangeFilter, error) {
	sf := store.ChangeFilter{Path: w.base, Actor: f.Actor, Since: f.Since, Set: f.Set, After: f.After, Limit: f.Limit}
	if f.Path != "" {
		r, err := w.resolve(f.Path)
		if err != nil {
			return sf, err
		}
		if err := w.check(ctx, OpRead, r); err != nil {
			return sf, err
		}
		sf.Path = r.name
	}
	return sf, nil
}
