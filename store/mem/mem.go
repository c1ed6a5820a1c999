// Package mem is an in-memory [store.Store], for tests and ephemeral sessions.
//
// Bytes are copied in and out, so a caller can never change stored content by editing a
// slice it passed or received. The store is safe for concurrent use.
package mem

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Store is an in-memory tree of files and directories. The zero value is not usable; call [New].
type Store struct {
	mu   sync.RWMutex
	root *node
	now  func() time.Time
	meta metaMap // see meta.go

	jonce sync.Once // see journal.go
	j     *journal

	hasLinks bool // a link was ever made: names must be resolved (see link.go)
}

type node struct {
	name     string
	dir      bool
	data     []byte
	modTime  time.Time
	children map[string]*node
	link     string      // a symbolic link's target; "" for a file or directory
	perm     fs.FileMode // permission bits set by Chmod; 0: the defaults
}

var (
	_ store.Store  = (*Store)(nil)
	_ store.Copier = (*Store)(nil)

	_ store.ConditionalRemover = (*Store)(nil)
)

// New returns an empty store holding only its root directory.
func New() *Store {
	s := &Store{now: time.Now}
	s.root = &node{name: ".", dir: true, modTime: s.now(), children: map[string]*node{}}
	return s
}

func pathErr(op, name string, err error) error { return &fs.PathError{Op: op, Path: name, Err: err} }

// walk returns the node for name, following symbolic links, or an error wrapping
// fs.ErrNotExist or store.ErrNotDir.
func (s *Store) walk(op, name string) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr(op, name, store.ErrInvalidName)
	}
	real, err := s.resolve(op, name, true)
	if err != nil {
		return nil, err
	}
	n, err := s.rawWalk(op, real)
	if err != nil {
		return nil, pathErr(op, name, unwrap(err))
	}
	return n, nil
}

// rawWalk returns the node for name, a resolved name: a link on the way is not a directory.
func (s *Store) rawWalk(op, name string) (*node, error) {
	n := s.root
	if name == "." {
		return n, nil
	}
	for elem := range strings.SplitSeq(name, "/") {
		if !n.dir {
			return nil, pathErr(op, name, store.ErrNotDir)
		}
		c, ok := n.children[elem]
		if !ok {
			return nil, pathErr(op, name, fs.ErrNotExist)
		}
		n = c
	}
	return n, nil
}

// parent returns the directory that holds name, and name's last element.
func (s *Store) parent(op, name string) (*node, string, error) {
	if !fs.ValidPath(name) {
		return nil, "", pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return nil, "", pathErr(op, name, fs.ErrInvalid)
	}
	dir, base := path.Split(name)
	p, err := s.walk(op, cleanDir(dir))
	if err == nil && p.link != "" {
		err = pathErr(op, name, fs.ErrNotExist) // a dangling link to the parent
	}
	if err != nil {
		return nil, "", pathErr(op, name, unwrap(err))
	}
	if !p.dir {
		return nil, "", pathErr(op, name, store.ErrNotDir)
	}
	return p, base, nil
}

func cleanDir(dir string) string {
	if dir == "" {
		return "."
	}
	return strings.TrimSuffix(dir, "/")
}

func unwrap(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// Stat implements [store.Store].
func (s *Store) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n, err := s.walk("stat", name)
	if err != nil {
		return nil, err
	}
	return n.info(), nil
}

// ReadDir implements [store.Store].
func (s *Store) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n, err := s.walk("readdir", name)
	if err != nil {
		return nil, err
	}
	if !n.dir {
		return nil, pathErr("readdir", name, store.ErrNotDir)
	}
	out := make([]fs.DirEntry, 0, len(n.children))
	for _, c := range n.children {
		out = append(out, c.info())
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// Open implements [store.Store]. The returned file reads a snapshot of the content.
func (s *Store) Open(ctx context.Context, name string) (fs.File, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n, err := s.walk("open", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, pathErr("open", name, store.ErrIsDir)
	}
	// Stored slices are never modified in place (writes install new slices), so the
	// reader may share the current one.
	return store.OpenBytes(n.info(), n.data), nil
}

// WriteFile implements [store.Store].
func (s *Store) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	// Read before locking: r may be slow, and may even read from this store.
	data, err := io.ReadAll(r)
	if err != nil {
		return 0, pathErr("write", name, err)
	}
	n := int64(len(data))
	if name == "." {
		return 0, pathErr("write", name, store.ErrIsDir)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, base, err := s.parent("write", name)
	if err != nil {
		return 0, err
	}
	old, exists := p.children[base]
	if exists && opts.Mode == store.Exclusive {
		// Like open(O_CREAT|O_EXCL): whatever is there, file or directory, exists.
		return 0, pathErr("write", name, fs.ErrExist)
	}
	if exists && old.dir {
		return 0, pathErr("write", name, store.ErrIsDir)
	}
	if opts.IfMatch != "" && (!exists || store.Hash(old.data) != opts.IfMatch) {
		return 0, pathErr("write", name, store.ErrChanged)
	}
	switch opts.Mode {
	case store.Exclusive:
		if exists {
			return 0, pathErr("write", name, fs.ErrExist)
		}
	case store.Append:
		if exists {
			data = append(slices.Clip(old.data), data...)
		}
	case store.Replace:
		if opts.IfAbsent && exists {
			return 0, pathErr("write", name, store.ErrChanged)
		}
	default:
		return 0, pathErr("write", name, fs.ErrInvalid)
	}
	nn := &node{name: base, data: data, modTime: s.now()}
	if exists && old.link == "" {
		nn.perm = old.perm // a rewrite keeps the execute bits, as on a disk
	}
	p.children[base] = nn
	p.modTime = s.now()
	return n, nil
}

// Mkdir implements [store.Store].
func (s *Store) Mkdir(ctx context.Context, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "." {
		return pathErr("mkdir", name, fs.ErrExist)
	}
	p, base, err := s.parent("mkdir", name)
	if err != nil {
		return err
	}
	if _, ok := p.children[base]; ok {
		return pathErr("mkdir", name, fs.ErrExist)
	}
	p.children[base] = &node{name: base, dir: true, modTime: s.now(), children: map[string]*node{}}
	p.modTime = s.now()
	return nil
}

// Remove implements [store.Store].
func (s *Store) Remove(ctx context.Context, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, base, err := s.parent("remove", name)
	if err != nil {
		return err
	}
	n, ok := p.children[base]
	if !ok {
		return pathErr("remove", name, fs.ErrNotExist)
	}
	if n.dir && len(n.children) > 0 {
		return pathErr("remove", name, store.ErrNotEmpty)
	}
	delete(p.children, base)
	p.modTime = s.now()
	return nil
}

// RemoveIf implements [store.ConditionalRemover].
func (s *Store) RemoveIf(ctx context.Context, name, hash string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "." {
		return pathErr("remove", name, store.ErrIsDir)
	}
	p, base, err := s.parent("remove", name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir) {
		return pathErr("remove", name, store.ErrChanged)
	}
	if err != nil {
		return err
	}
	n, ok := p.children[base]
	switch {
	case !ok:
		return pathErr("remove", name, store.ErrChanged)
	case n.dir:
		return pathErr("remove", name, store.ErrIsDir)
	case store.Hash(n.data) != hash:
		return pathErr("remove", name, store.ErrChanged)
	}
	delete(p.children, base)
	p.modTime = s.now()
	return nil
}

// Rename implements [store.Store].
func (s *Store) Rename(ctx context.Context, oldname, newname string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	op, obase, err := s.parent("rename", oldname)
	if err != nil {
		return err
	}
	n, ok := op.children[obase]
	if !ok {
		return pathErr("rename", oldname, fs.ErrNotExist)
	}
	if n.dir && (newname == oldname || strings.HasPrefix(newname, oldname+"/")) {
		return pathErr("rename", newname, fs.ErrInvalid)
	}
	np, nbase, err := s.parent("rename", newname)
	if err != nil {
		return err
	}
	if _, ok := np.children[nbase]; ok {
		return pathErr("rename", newname, fs.ErrExist)
	}
	delete(op.children, obase)
	n.name = nbase
	np.children[nbase] = n
	op.modTime, np.modTime = s.now(), s.now()
	return nil
}

// Copy implements [store.Copier].
func (s *Store) Copy(ctx context.Context, src, dst string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.walk("copy", src)
	if err != nil {
		return err
	}
	if n.dir {
		return pathErr("copy", src, store.ErrIsDir)
	}
	p, base, err := s.parent("copy", dst)
	if err != nil {
		return err
	}
	if _, ok := p.children[base]; ok {
		return pathErr("copy", dst, fs.ErrExist)
	}
	p.children[base] = &node{name: base, data: n.data, modTime: s.now()}
	p.modTime = s.now()
	return nil
}

// info describes n; it also serves as n's directory entry.
func (n *node) info() *store.Entry {
	switch {
	case n.dir:
		return store.NewDir(n.name, n.modTime).WithPerm(n.perm)
	case n.link != "":
		return store.NewLink(n.name, int64(len(n.link)), n.modTime)
	}
	return store.NewFile(n.name, int64(len(n.data)), n.modTime).WithPerm(n.perm)
}
