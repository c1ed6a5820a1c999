package store

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"sort"
)

// A Layered store shows the changes an upper store holds over a base store (a copy-on-write
// overlay, store/overlay). Readers that go to the base directly for speed (package search)
// read through the layered store only the names its [Layout] does not show as clean.
type Layered interface {
	Store
	// Base returns the store under the layer.
	Base() Store
	// Layout returns a snapshot of where the layered store's names come from.
	Layout(ctx context.Context) (*Layout, error)
}

// A Layout is a snapshot of where a [Layered] store's names come from: a name not in Upper,
// and not hidden by one of Whiteouts (itself or a parent), reads the same from the base as
// through the layered store.
type Layout struct {
	Upper     map[string]bool // every file and directory the upper store holds
	Whiteouts map[string]bool // the names whose base entries, and all below, are hidden
	Dirty     map[string]bool // the directories whose listing differs from the base's
	// Entries are the upper store's listings of its directories, by layered name.
	Entries map[string][]fs.DirEntry
}

// Merge returns the layered store's listing of the directory dir, given the base's listing
// of it (nil when the base has none), without asking either store.
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
		name := e.Name()
		if dir != "." {
			name = dir + "/" + name
		}
		if !seen[e.Name()] && !l.Whiteouts[name] {
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

// Clean reports whether name reads the same from the base as through the layered store.
func (l *Layout) Clean(name string) bool {
	return !l.Upper[name] && !l.Dirty[name] && !l.Hidden(name)
}
