// Package overlay is a copy-on-write [store.Store]: a read-only base (a host directory
// through store/osdir, or any store) under an upper store that receives every change.
//
// Reads fall through to the base; writes, deletions and renames go to the upper store only,
// so the base is never changed until a reviewer applies the pending changes (see
// [Overlay.Pending], [Overlay.Apply], [Overlay.Discard]).
//
// The upper store holds the changed files under "t/" at their overlay names and, in
// "overlay.json", the state that the tree alone cannot say: the whiteouts (overlay names
// whose base entries, and everything below them, are hidden), where a moved file came from
// in the base, and the base content hash the agent saw when it first changed a base path
// (the compare-and-swap of apply). Both live in the upper store, so a pending session
// survives restarts when the upper store does (a SQLite file by default in the CLI).
//
// A directory rename copies the directory's visible content into the upper store under
// the new name and whites out the old name: everything below appears under the new name
// and vanishes under the old, and files added below afterwards are ordinary upper files.
// Renaming a large base directory therefore costs a copy of it.
package overlay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// stateName is the upper store's file that holds the overlay's state; treeDir holds the tree.
const (
	stateName = "overlay.json"
	treeDir   = "t"
)

// state is what overlay.json holds.
type state struct {
	// Whiteouts are the overlay names whose base entries, and all below, are hidden.
	Whiteouts map[string]bool `json:"whiteouts,omitempty"`
	// From maps an upper file's overlay name to the base name it was moved from.
	From map[string]string `json:"from,omitempty"`
	// Seen maps a base name to the hash of its content when the agent first changed it,
	// "" when the base had no file there.
	Seen map[string]string `json:"seen,omitempty"`
}

// Overlay is a copy-on-write store. Create one with [New].
type Overlay struct {
	base  store.Store
	upper *tracked

	mu        sync.RWMutex // guards st and serializes every change
	st        state
	raw       []byte // overlay.json as last read or written
	loaded    bool
	onResolve OnResolve
	actor     string // who the base's journal says applied or discarded; "" is Actor
}

var (
	_ store.Store    = (*Overlay)(nil)
	_ store.Lstater  = (*Overlay)(nil)
	_ store.Metadata = (*Overlay)(nil)
	_ store.Layered  = (*Overlay)(nil)

	_ store.ConditionalRemover = (*Overlay)(nil)
)

// New returns the overlay of upper over base, reading the state a previous session left in
// upper. base is only read, never written, except by [Overlay.Apply].
func New(ctx context.Context, base, upper store.Store) (*Overlay, error) {
	o := &Overlay{base: base, upper: &tracked{Store: upper}}
	if err := upper.Mkdir(ctx, treeDir); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("overlay: preparing the upper store: %w", err)
	}
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	return o, nil
}

// Base returns the store under the overlay.
func (o *Overlay) Base() store.Store { return o.base }

// Upper returns the store that holds the changes.
func (o *Overlay) Upper() store.Store { return o.upper.Store }

// save writes the state to the upper store, atomically. Callers hold o.mu.
func (o *Overlay) save(ctx context.Context) error {
	b, err := json.Marshal(&o.st)
	if err != nil {
		return err
	}
	if o.loaded && bytes.Equal(b, o.raw) {
		return nil
	}
	if _, err = o.upper.Store.WriteFile(ctx, stateName, bytes.NewReader(b), store.WriteOptions{}); err != nil {
		return err
	}
	o.raw = b
	return nil
}

// up returns the upper store's name of an overlay name.
func up(name string) string {
	if name == "." {
		return treeDir
	}
	return treeDir + "/" + name
}

func pathErr(op, name string, err error) error { return &fs.PathError{Op: op, Path: name, Err: err} }

// rename gives an upper store's error the overlay name.
func rename(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
}

func valid(op, name string) error {
	if !fs.ValidPath(name) {
		return pathErr(op, name, store.ErrInvalidName)
	}
	return nil
}

// hidden reports whether name, or one of its parents, is whited out. Callers hold o.mu.
func (o *Overlay) hidden(name string) bool {
	if len(o.st.Whiteouts) == 0 {
		return false
	}
	for p := name; ; p = path.Dir(p) {
		if o.st.Whiteouts[p] {
			return true
		}
		if p == "." {
			return false
		}
	}
}

// lookup describes name as the overlay shows it, with the layer it comes from.
// Callers hold o.mu (read or write).
func (o *Overlay) lookup(ctx context.Context, op, name string, follow bool) (fs.FileInfo, bool, error) {
	if err := valid(op, name); err != nil {
		return nil, false, err
	}
	var fi fs.FileInfo
	err := error(pathErr(op, name, fs.ErrNotExist))
	if o.upperHas(name) {
		if follow {
			fi, err = o.upper.Stat(ctx, up(name))
		} else {
			fi, err = store.Lstat(ctx, o.upper, up(name))
		}
	}
	if err == nil {
		if name == "." {
			fi = rootInfo{fi}
		}
		return fi, true, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, rename(err, name)
	}
	if o.hidden(name) {
		// A file in the upper store above a hidden name makes it "not a directory".
		for p := path.Dir(name); p != "."; p = path.Dir(p) {
			if pi, err := o.upper.Stat(ctx, up(p)); err == nil && !pi.IsDir() {
				return nil, false, pathErr(op, name, store.ErrNotDir)
			}
		}
		return nil, false, pathErr(op, name, fs.ErrNotExist)
	}
	if follow {
		fi, err = o.base.Stat(ctx, name)
	} else {
		fi, err = store.Lstat(ctx, o.base, name)
	}
	if err != nil {
		return nil, false, rename(err, name)
	}
	return fi, false, nil
}

// rootInfo names the upper store's tree directory ".".
type rootInfo struct{ fs.FileInfo }

func (rootInfo) Name() string { return "." }

// Stat implements [store.Store].
func (o *Overlay) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	fi, _, err := o.lookup(ctx, "stat", name, true)
	return fi, err
}

// Lstat implements [store.Lstater].
func (o *Overlay) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	fi, _, err := o.lookup(ctx, "lstat", name, false)
	return fi, err
}

// ReadDir implements [store.Store]: the upper entries, and the base entries neither
// shadowed by them nor whited out.
func (o *Overlay) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.readDir(ctx, name)
}

func (o *Overlay) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	fi, inUpper, err := o.lookup(ctx, "readdir", name, true)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, pathErr("readdir", name, store.ErrNotDir)
	}
	var ups []fs.DirEntry
	if inUpper {
		if ups, err = o.upper.ReadDir(ctx, up(name)); err != nil {
			return nil, rename(err, name)
		}
		if name == "." && len(ups) == 0 {
			ups = nil
		}
	}
	if o.hidden(name) {
		return ups, nil
	}
	bases, err := o.base.ReadDir(ctx, name)
	if err != nil {
		if inUpper && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir)) {
			return ups, nil
		}
		return nil, rename(err, name)
	}
	if len(ups) == 0 && len(o.st.Whiteouts) == 0 {
		return bases, nil
	}
	seen := make(map[string]bool, len(ups))
	for _, e := range ups {
		seen[e.Name()] = true
	}
	out := ups
	for _, e := range bases {
		if seen[e.Name()] || o.st.Whiteouts[join(name, e.Name())] {
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// Open implements [store.Store].
func (o *Overlay) Open(ctx context.Context, name string) (fs.File, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.open(ctx, name)
}

func (o *Overlay) open(ctx context.Context, name string) (fs.File, error) {
	if err := valid("open", name); err != nil {
		return nil, err
	}
	if o.upperHas(name) {
		f, err := o.upper.Open(ctx, up(name))
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, rename(err, name)
		}
	}
	if o.hidden(name) || o.upper.fileAbove(up(name)) {
		if _, _, err := o.lookup(ctx, "open", name, true); err != nil {
			return nil, err
		}
	}
	f, err := o.base.Open(ctx, name)
	return f, rename(err, name)
}

// parentDir checks that name's parent is a directory of the overlay and makes sure the
// upper store has it. Callers hold o.mu.
func (o *Overlay) parentDir(ctx context.Context, op, name string) error {
	if name == "." {
		return nil
	}
	dir := path.Dir(name)
	fi, inUpper, err := o.lookup(ctx, op, dir, true)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return pathErr(op, name, fs.ErrNotExist)
		}
		if errors.Is(err, store.ErrNotDir) {
			return pathErr(op, name, store.ErrNotDir)
		}
		return err
	}
	if !fi.IsDir() {
		return pathErr(op, name, store.ErrNotDir)
	}
	if inUpper {
		return nil
	}
	return o.upperDirs(ctx, dir)
}

// upperDirs creates dir and its parents in the upper store, as directories the base shows.
func (o *Overlay) upperDirs(ctx context.Context, dir string) error {
	if dir == "." {
		return nil
	}
	if fi, err := o.upper.Stat(ctx, up(dir)); err == nil && fi.IsDir() {
		return nil
	}
	if err := o.upperDirs(ctx, path.Dir(dir)); err != nil {
		return err
	}
	if err := o.upper.Mkdir(ctx, up(dir)); err != nil && !errors.Is(err, fs.ErrExist) {
		return rename(err, dir)
	}
	return nil
}

// seeBase records, the first time, the hash of what the base holds at name. Should the
// base fail to say (EIO, EACCES), nothing is recorded, and the next change of name tries
// again: a guess would make a later apply take the base for changed, or for unchanged.
// Callers hold o.mu.
func (o *Overlay) seeBase(ctx context.Context, name string) {
	if _, ok := o.st.Seen[name]; ok {
		return
	}
	if h, err := baseHash(ctx, o.base, name); err == nil {
		o.st.Seen[name] = h
	}
}

// baseHash returns the hash of base's file name, "" when there is none, and "dir" for a
// directory. Only a missing file (or a file where a parent directory should be) is none:
// any other error is returned, so that an unreadable base is never taken for an empty one.
func baseHash(ctx context.Context, base store.Store, name string) (string, error) {
	fi, err := base.Stat(ctx, name)
	if absent(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "dir", nil
	}
	f, err := base.Open(ctx, name)
	if absent(err) {
		return "", nil // removed in between
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	return store.HashReader(f)
}

// absent reports whether err says that a name does not exist.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir)
}

// baseVisible reports whether the base's entry at name shows through. Callers hold o.mu.
func (o *Overlay) baseVisible(ctx context.Context, name string) bool {
	if o.hidden(name) {
		return false
	}
	_, err := store.Lstat(ctx, o.base, name)
	return err == nil
}

// WriteFile implements [store.Store]. A base file is copied up before an append.
func (o *Overlay) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return 0, err
	}
	if err := valid("write", name); err != nil {
		return 0, err
	}
	if name == "." {
		if opts.Mode == store.Exclusive {
			return 0, pathErr("write", name, fs.ErrExist)
		}
		return 0, pathErr("write", name, store.ErrIsDir)
	}
	fi, inUpper, err := o.lookup(ctx, "write", name, true)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return 0, err
	case exists && opts.Mode == store.Exclusive:
		return 0, pathErr("write", name, fs.ErrExist)
	case exists && fi.IsDir():
		return 0, pathErr("write", name, store.ErrIsDir)
	case !exists && opts.IfMatch != "":
		return 0, pathErr("write", name, store.ErrChanged)
	case exists && opts.IfAbsent && opts.Mode == store.Replace:
		return 0, pathErr("write", name, store.ErrChanged)
	}
	if err := o.parentDir(ctx, "write", name); err != nil {
		return 0, err
	}
	if exists && opts.IfMatch != "" {
		f, err := o.open(ctx, name)
		if err != nil {
			return 0, err
		}
		h, err := store.HashReader(f)
		f.Close()
		if err != nil {
			return 0, rename(err, name)
		}
		if h != opts.IfMatch {
			return 0, pathErr("write", name, store.ErrChanged)
		}
	}
	uopts := store.WriteOptions{Mode: opts.Mode}
	if opts.Mode == store.Exclusive {
		uopts.Mode = store.Replace // the overlay checked; a hidden upper file cannot exist
	}
	var n int64
	if exists && !inUpper && opts.Mode == store.Append {
		// Copy the base file up, then append: one atomic write of both.
		f, err := o.base.Open(ctx, name)
		if err != nil {
			return 0, rename(err, name)
		}
		defer f.Close()
		cr := &countReader{r: r}
		if _, err := o.upper.WriteFile(ctx, up(name), io.MultiReader(f, cr), store.WriteOptions{}); err != nil {
			return 0, rename(err, name)
		}
		n = cr.n
	} else {
		n, err = o.upper.WriteFile(ctx, up(name), r, uopts)
		if err != nil {
			return n, rename(err, name)
		}
	}
	o.seeBase(ctx, name)
	return n, o.save(ctx)
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Mkdir implements [store.Store].
func (o *Overlay) Mkdir(ctx context.Context, name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if _, _, err := o.lookup(ctx, "mkdir", name, false); err == nil {
		return pathErr("mkdir", name, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := o.parentDir(ctx, "mkdir", name); err != nil {
		return err
	}
	if err := o.upper.Mkdir(ctx, up(name)); err != nil {
		return rename(err, name)
	}
	return nil
}

// Remove implements [store.Store]: the upper entry goes, and a base entry is whited out.
func (o *Overlay) Remove(ctx context.Context, name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if err := o.remove(ctx, "remove", name); err != nil {
		return err
	}
	return o.save(ctx)
}

func (o *Overlay) remove(ctx context.Context, op, name string) error {
	if name == "." {
		return pathErr(op, name, fs.ErrInvalid)
	}
	fi, inUpper, err := o.lookup(ctx, op, name, false)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		entries, err := o.readDir(ctx, name)
		if err != nil {
			return err
		}
		if len(entries) > 0 {
			return pathErr(op, name, store.ErrNotEmpty)
		}
	}
	if inUpper {
		if err := o.upper.Remove(ctx, up(name)); err != nil {
			return rename(err, name)
		}
	}
	if o.baseVisible(ctx, name) {
		o.seeBase(ctx, name)
		o.st.Whiteouts[name] = true
	}
	delete(o.st.From, name)
	return nil
}

// RemoveIf implements [store.ConditionalRemover], under the overlay's lock.
func (o *Overlay) RemoveIf(ctx context.Context, name, hash string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if name == "." {
		return pathErr("remove", name, store.ErrIsDir)
	}
	fi, _, err := o.lookup(ctx, "remove", name, false)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir):
		return pathErr("remove", name, store.ErrChanged)
	case err != nil:
		return err
	case fi.IsDir():
		return pathErr("remove", name, store.ErrIsDir)
	case !fi.Mode().IsRegular():
		return pathErr("remove", name, store.ErrNotRegular)
	}
	f, err := o.open(ctx, name)
	if err != nil {
		return err
	}
	h, err := store.HashReader(f)
	f.Close()
	if err != nil {
		return rename(err, name)
	}
	if h != hash {
		return pathErr("remove", name, store.ErrChanged)
	}
	if err := o.remove(ctx, "remove", name); err != nil {
		return err
	}
	return o.save(ctx)
}

// Rename implements [store.Store]. A file is copied to its new name; a directory is
// copied with everything below it; the old name is then removed (whited out in the base).
func (o *Overlay) Rename(ctx context.Context, oldname, newname string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	if err := valid("rename", oldname); err != nil {
		return err
	}
	if err := valid("rename", newname); err != nil {
		return err
	}
	if oldname == "." || newname == "." {
		return pathErr("rename", oldname, fs.ErrInvalid)
	}
	fi, _, err := o.lookup(ctx, "rename", oldname, false)
	if err != nil {
		return err
	}
	if _, _, err := o.lookup(ctx, "rename", newname, false); err == nil {
		if fi.IsDir() && (newname == oldname || strings.HasPrefix(newname, oldname+"/")) {
			return pathErr("rename", oldname, fs.ErrInvalid)
		}
		return pathErr("rename", newname, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if fi.IsDir() && strings.HasPrefix(newname, oldname+"/") {
		return pathErr("rename", oldname, fs.ErrInvalid)
	}
	if err := o.parentDir(ctx, "rename", newname); err != nil {
		return err
	}
	if err := o.copyTree(ctx, oldname, newname, fi.IsDir()); err != nil {
		return err
	}
	if err := o.removeTree(ctx, oldname, fi.IsDir()); err != nil {
		return err
	}
	return o.save(ctx)
}

// copyTree copies the overlay's entry at src, and all below, to dst in the upper store,
// remembering where base files came from.
func (o *Overlay) copyTree(ctx context.Context, src, dst string, dir bool) error {
	if !dir {
		f, err := o.open(ctx, src)
		if err != nil {
			return err
		}
		_, err = o.upper.WriteFile(ctx, up(dst), f, store.WriteOptions{Mode: store.Exclusive})
		f.Close()
		if err != nil {
			return rename(err, dst)
		}
		if from, ok := o.st.From[src]; ok {
			o.st.From[dst] = from
		} else if o.baseVisible(ctx, src) {
			o.seeBase(ctx, src)
			o.st.From[dst] = src
		}
		if o.st.Whiteouts[dst] || o.baseVisible(ctx, dst) {
			o.seeBase(ctx, dst)
		}
		return nil
	}
	if err := o.upper.Mkdir(ctx, up(dst)); err != nil {
		return rename(err, dst)
	}
	entries, err := o.readDir(ctx, src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := o.copyTree(ctx, join(src, e.Name()), join(dst, e.Name()), e.IsDir()); err != nil {
			return err
		}
	}
	return nil
}

// removeTree removes the overlay's entry at name and all below.
func (o *Overlay) removeTree(ctx context.Context, name string, dir bool) error {
	if dir {
		entries, err := o.readDir(ctx, name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := o.removeTree(ctx, join(name, e.Name()), e.IsDir()); err != nil {
				return err
			}
		}
	}
	return o.remove(ctx, "rename", name)
}

// GetMeta implements [store.Metadata] with the upper store's metadata, so that what the
// agent's session records stays with its pending changes.
func (o *Overlay) GetMeta(ctx context.Context, key string) (string, error) {
	m, ok := o.upper.Store.(store.Metadata)
	if !ok {
		return "", pathErr("getmeta", key, fs.ErrNotExist)
	}
	return m.GetMeta(ctx, key)
}

// SetMeta implements [store.Metadata]; see [Overlay.GetMeta].
func (o *Overlay) SetMeta(ctx context.Context, key, value string) error {
	m, ok := o.upper.Store.(store.Metadata)
	if !ok {
		return pathErr("setmeta", key, errors.ErrUnsupported)
	}
	return m.SetMeta(ctx, key, value)
}

// A Layout is a snapshot of where the overlay's names come from; see [store.Layout].
type Layout = store.Layout

// Layout implements [store.Layered]: it returns a snapshot of the overlay's layout. It asks no store: the overlay keeps
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
func (e *upperEntry) IsDir() bool  { return e.dir }
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

// Reserved implements [store.Reserver]: what the base keeps for llmfs is out of bounds in
// the overlay too.
func (o *Overlay) Reserved() []string { return store.Reserved(o.base) }

// RealName implements [store.Resolver] with the base's answer: symbolic links live in the
// base only (the overlay makes none), so a link the agent reads through leads where the
// base says, and the workspace's deny rules and reserved names judge its target.
func (o *Overlay) RealName(ctx context.Context, name string) (string, error) {
	return store.RealName(ctx, o.base, name)
}
