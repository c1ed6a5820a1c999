package overlay

import (
	"context"
	"errors"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

// The pending scan's reads. Listing 1,000 pending changes read three files per change: the
// agent's version and its merge base from the upper store (a query each on a SQL store)
// and the base file, to see whether it holds the agent's version already. The upper store's
// files now come with its directory listings when it can list content (one query per
// directory), the merge bases with one listing of "b/", and the base file is read only
// when its size says it may equal the agent's version.

// scanCache holds, for one pending scan, what the upper store's listings brought. Callers
// hold o.mu; the scan drops it when done.
type scanCache struct {
	bases map[string][]byte // merge base content by hash, from the listing of baseDir
	dirs  baseDirs          // the base directories held open (see basestat.go)
}

// startScan prepares the cache of a pending scan and returns what drops it.
func (o *Overlay) startScan(ctx context.Context) (func(), error) {
	c := &scanCache{bases: map[string][]byte{}, dirs: baseDirs{}}
	if l, ok := o.upper.Store.(store.ContentLister); ok && len(o.st.Seen) > 0 {
		es, err := l.ReadDirContent(ctx, baseDir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range es {
			if ce, ok := e.(store.ContentEntry); ok {
				c.bases[e.Name()] = ce.Content()
			}
		}
	}
	o.scan = c
	return func() { c.dirs.close(); o.scan = nil }, nil
}

// readUpperDir lists the upper store's directory dir (an upper name), with the content of
// its files where the store brings it along.
func (o *Overlay) readUpperDir(ctx context.Context, dir string) ([]fs.DirEntry, error) {
	if l, ok := o.upper.Store.(store.ContentLister); ok {
		return l.ReadDirContent(ctx, dir)
	}
	return o.upper.ReadDir(ctx, dir)
}

// upperContent returns the content of the upper file name (an overlay name) listed as e.
func (o *Overlay) upperContent(ctx context.Context, e fs.DirEntry, name string) ([]byte, error) {
	if ce, ok := e.(store.ContentEntry); ok {
		return ce.Content(), nil
	}
	b, err := readAll(ctx, o.upper, up(name))
	return b, rename(err, name)
}

// cachedBase returns the merge base of hash h if the scan's listing brought it.
func (o *Overlay) cachedBase(h string) ([]byte, bool) {
	if o.scan == nil {
		return nil, false
	}
	b, ok := o.scan.bases[h]
	return b, ok
}

// baseHolds reports whether the base file name holds exactly data. A regular file of
// another size does not, and is not read; a missing one does not; any other failure to
// read it is an error, so that an unreadable base is never taken for a different one.
// fi and err are the base's Stat of name, which the caller asked already.
func (o *Overlay) baseHolds(ctx context.Context, name string, data []byte, fi fs.FileInfo, err error) (bool, error) {
	if err == nil && fi.Mode().IsRegular() && fi.Size() != int64(len(data)) {
		return false, nil
	}
	cur, err := readAll(ctx, o.base, name)
	if err != nil && !absent(err) {
		return false, err
	}
	return err == nil && string(cur) == string(data), nil
}
