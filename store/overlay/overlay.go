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
// (the compare-and-swap of apply), with a copy of that content under "b/" (the merge base
// of three-way review; see mergebase.go). Both live in the upper store, so a pending session
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
	"io/fs"
	"path"
	"sort"
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
	private   bool // the state lives in memory only (NewPrivate)
	onResolve OnResolve
	actor     string     // who the base's journal says applied or discarded; "" is Actor
	callActor string     // the actor of the apply or discard under way, if it names one
	scan      *scanCache // what the pending scan under way listed, if one is
}

var (
	_ store.Store    = (*Overlay)(nil)
	_ store.Lstater  = (*Overlay)(nil)
	_ store.Metadata = (*Overlay)(nil)
	_ store.Layered  = (*Overlay)(nil)

	_ store.Reviewable = (*Overlay)(nil)

	_ store.ConditionalRemover = (*Overlay)(nil)
)

// New returns the overlay of upper over base, reading the state a previous session left in
// upper. base is only read, never written, except by [Overlay.Apply].
//
// The state is saved in upper after each change and read again before each, so that other
// processes sharing upper (a person's `llmfs review` beside an agent's session) see the
// same changes.
func New(ctx context.Context, base, upper store.Store) (*Overlay, error) {
	o := &Overlay{base: base, upper: &tracked{Store: upper}}
	// A stat first: the tree is there but for a new layer, and a Mkdir is a write (a
	// write transaction on SQLite) on every open, a listing's too.
	if fi, err := upper.Stat(ctx, treeDir); err != nil || !fi.IsDir() {
		if err := upper.Mkdir(ctx, treeDir); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("overlay: preparing the upper store: %w", err)
		}
	}
	if err := o.load(ctx); err != nil {
		return nil, err
	}
	return o, nil
}

// NewPrivate is [New] for an upper store that is this process's alone and is dropped with
// it (a mount's session layer, which a crash discards): the state is kept in memory, never
// saved or read again. Saving it after each change cost a write of the whole state, so
// removing n files took time in n squared (rm -rf of a clone of this repository: minutes).
func NewPrivate(ctx context.Context, base, upper store.Store) (*Overlay, error) {
	o, err := New(ctx, base, upper)
	if err != nil {
		return nil, err
	}
	o.private = true
	return o, nil
}

// Base returns the store under the overlay.
func (o *Overlay) Base() store.Store { return o.base }

// Upper returns the store that holds the changes.
func (o *Overlay) Upper() store.Store { return o.upper.Store }

// save writes the state to the upper store, atomically. Callers hold o.mu.
func (o *Overlay) save(ctx context.Context) error {
	if o.private {
		return nil
	}
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
	if o.upperHas(ctx, name) {
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
	if o.upperHas(ctx, name) {
		f, err := o.upper.Open(ctx, up(name))
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, rename(err, name)
		}
	}
	if o.hidden(name) || o.upper.fileAbove(ctx, up(name)) {
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
// base fail to say (EIO, EACCES), it records [unreadableBase], which no content hashes to,
// so that a later apply finds the base changed and reports a conflict for a person to
// look at: never an overwrite on the strength of a guess. Callers hold o.mu.
func (o *Overlay) seeBase(ctx context.Context, name string) {
	if _, ok := o.st.Seen[name]; ok {
		return
	}
	h, data, err := baseContent(ctx, o.base, name)
	if err != nil {
		h = unreadableBase
	}
	if realHash(h) && data != nil && o.keepBase(ctx, h, data) != nil {
		// Without its merge base the file is reviewed against the base as it is, as
		// before merge bases were kept: still never an overwrite (Seen is the check).
		_ = o.upper.Store.Remove(ctx, baseBlob(h))
	}
	o.st.Seen[name] = h
}

// baseContent is [baseHash] with the file's content.
func baseContent(ctx context.Context, base store.Store, name string) (string, []byte, error) {
	fi, err := base.Stat(ctx, name)
	if absent(err) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	if fi.IsDir() {
		return "dir", nil, nil
	}
	if fi.Size() > largeFile {
		// Not kept as a merge base: a large file is never merged (see large.go).
		h, err := baseHash(ctx, base, name)
		return h, nil, err
	}
	data, err := readAll(ctx, base, name)
	if absent(err) {
		return "", nil, nil // removed in between
	}
	if err != nil {
		return "", nil, err
	}
	return store.Hash(data), data, nil
}

// unreadableBase stands in Seen for a base file that could not be read when the agent
// first changed it.
const unreadableBase = "unreadable"

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

// Reserved implements [store.Reserver]: what the base keeps for llmfs is out of bounds in
// the overlay too.
func (o *Overlay) Reserved() []string { return store.Reserved(o.base) }

// RealName implements [store.Resolver] with the base's answer: symbolic links live in the
// base only (the overlay makes none), so a link the agent reads through leads where the
// base says, and the workspace's deny rules and reserved names judge its target.
func (o *Overlay) RealName(ctx context.Context, name string) (string, error) {
	return store.RealName(ctx, o.base, name)
}
