package overlay

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// The layout of an overlay: where its names come from, for readers that go to the base directly.

// A Layout is a snapshot of where the overlay's names come from, for readers that go to the
// base directly for speed (package search): a name not in Upper, and not hidden by one of
// Whiteouts (itself or a parent), reads the same from the base as through the overlay.
type Layout struct {
	Upper     map[string]bool // every file and directory the upper store holds
	Whiteouts map[string]bool // the names whose base entries, and all below, are hidden
	Dirty     map[string]bool // the directories whose listing differs from the base's
	// Entries are the upper store's listings of its directories, by overlay name.
	Entries map[string][]fs.DirEntry
}

// Merge returns the overlay's listing of the directory dir, given the base's listing of it
// (nil when the base has none), without asking the overlay's stores.
func (l *Layout) Merge(dir string, base []fs.DirEntry) []fs.DirEntry {
	ups := l.Entries[dir]
	if l.Hidden(dir) {
		return slices.Clone(ups)
	}
	seen := make(map[string]bool, len(ups))
	for _, e := range ups {
		seen[e.Name()] = true
	}
	out := slices.Clone(ups)
	for _, e := range base {
		if !seen[e.Name()] && !l.Whiteouts[join(dir, e.Name())] {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Hidden reports whether the base's entry at name is hidden.
func (l *Layout) Hidden(name string) bool {
	if len(l.Whiteouts) == 0 {
		return false
	}
	for p := name; ; p = path.Dir(p) {
		if l.Whiteouts[p] {
			return true
		}
		if p == "." {
			return false
		}
	}
}

// Clean reports whether name reads the same from the base as through the overlay.
func (l *Layout) Clean(name string) bool {
	return !l.Upper[name] && !l.Dirty[name] && !l.Hidden(name)
}

// Layout returns a snapshot of the overlay's layout. It asks no store: the overlay keeps
// the upper store's names in memory.
func (o *Overlay) Layout(ctx context.Context) (*Layout, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	l := &Layout{Upper: map[string]bool{}, Whiteouts: map[string]bool{}, Dirty: map[string]bool{}, Entries: map[string][]fs.DirEntry{}}
	for w := range o.st.Whiteouts {
		l.Whiteouts[w] = true
		l.Dirty[path.Dir(w)] = true
	}
	for un, dir := range o.upper.names {
		name, ok := strings.CutPrefix(un, treeDir+"/")
		if !ok {
			continue // the tree's root
		}
		parent := path.Dir(name)
		l.Upper[name] = true
		l.Dirty[parent] = true
		l.Entries[parent] = append(l.Entries[parent], &upperEntry{o: o, ctx: ctx, name: name, dir: dir})
	}
	for _, es := range l.Entries {
		sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	}
	return l, nil
}

// upperEntry is a directory entry of the upper store, known from the overlay's names; its
// Info asks the upper store.
type upperEntry struct {
	o    *Overlay
	ctx  context.Context
	name string // overlay name
	dir  bool
}

func (e *upperEntry) Name() string { return path.Base(e.name) }

func (e *upperEntry) IsDir() bool { return e.dir }

func (e *upperEntry) Type() fs.FileMode {
	if e.dir {
		return fs.ModeDir
	}
	return 0
}

func (e *upperEntry) Info() (fs.FileInfo, error) {
	fi, err := store.Lstat(e.ctx, e.o.upper.Store, up(e.name))
	return fi, rename(err, e.name)
}
