package llmfs

import (
	"context"

	"github.com/llmfs/llmfs/store"
)

// Bounds of a LineCounter's cache: a few recent contents, so memory stays flat however
// many changes it counts.
const (
	lineCacheEntries = 512
	lineCacheBytes   = 4 << 20
)

// LineCounter counts the lines of many changes, as [History.Lines] does, keeping the last
// few contents it loaded: listed newest first, a path's older change left what its newer
// one started from, so each content of a file edited over and over is loaded once, not
// twice. It is for one listing at a time (not safe for concurrent use).
type LineCounter struct {
	h     *History
	cache map[string]string
	order []string // the cached hashes, oldest first
	bytes int
}

// LineCounter returns a counter for one listing of h.
func (h *History) LineCounter() *LineCounter {
	return &LineCounter{h: h, cache: map[string]string{}}
}

// Lines returns the lines c added and removed, as [History.Lines].
func (lc *LineCounter) Lines(ctx context.Context, c Change) (added, removed int) {
	if c.lines.Counted {
		return c.lines.Added, c.lines.Removed
	}
	if c.Before.Kind == c.After.Kind && c.Before.Hash == c.After.Hash {
		return 0, 0 // the same content: nothing to load
	}
	w := lc.h.w
	j, err := w.history()
	if err != nil {
		return 0, 0
	}
	return changeLines(c, func(v store.Version) (string, bool) { return lc.text(ctx, j, v) })
}

// text returns a version's content as Workspace.text does, from the cache if it is there.
func (lc *LineCounter) text(ctx context.Context, j store.Journal, v store.Version) (string, bool) {
	if v.Kind != store.File {
		return lc.h.w.text(ctx, j, v)
	}
	if s, ok := lc.cache[v.Hash]; ok {
		return s, true
	}
	s, ok := lc.h.w.text(ctx, j, v)
	if !ok || len(s) > lineCacheBytes/4 {
		return s, ok
	}
	for len(lc.order) > 0 && (len(lc.order) >= lineCacheEntries || lc.bytes+len(s) > lineCacheBytes) {
		old := lc.order[0]
		lc.order = lc.order[1:]
		lc.bytes -= len(lc.cache[old])
		delete(lc.cache, old)
	}
	lc.cache[v.Hash] = s
	lc.order = append(lc.order, v.Hash)
	lc.bytes += len(s)
	return s, true
}
