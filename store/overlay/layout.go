package overlay

import (
	"context"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// The layout of an overlay: where its names come from, for readers that go to the base directly.

// A Layout is a snapshot of where the overlay's names come from; see [store.Layout].
type Layout = store.Layout

// Layout implements [store.Layered]: it returns a snapshot of the overlay's layout. It asks
// no store once the overlay has listed the upper store's names, which it keeps in memory.
func (o *Overlay) Layout(ctx context.Context) (*Layout, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if err := o.upper.list(ctx); err != nil {
		return nil, err
	}
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
