package mem

import (
	"context"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store"
)

// Symbolic links and attributes. A link is a node holding its target as written; names
// are resolved through links (store.FollowLinks) only once a link was ever made, so a store
// without links pays nothing. No resolution leads outside the store.

var (
	_ store.Symlinker  = (*Store)(nil)
	_ store.Resolver   = (*Store)(nil)
	_ store.AttrSetter = (*Store)(nil)
)

// resolve returns the name name leads to, following every link on the way and, if final,
// the last element's too. s.mu is held.
func (s *Store) resolve(op, name string, final bool) (string, error) {
	if !s.hasLinks || name == "." {
		return name, nil
	}
	isLink := func(n string) (bool, error) {
		nd, err := s.rawWalk(op, n)
		if err != nil {
			return false, err
		}
		return nd.link != "", nil
	}
	readlink := func(n string) (string, error) {
		nd, err := s.rawWalk(op, n)
		if err != nil {
			return "", err
		}
		return nd.link, nil
	}
	if final {
		return store.FollowLinks(context.Background(), name, isLink, readlink)
	}
	dir, base := splitLast(name)
	real, err := store.FollowLinks(context.Background(), dir, isLink, readlink)
	if err != nil {
		return "", err
	}
	if real == "." {
		return base, nil
	}
	return real + "/" + base, nil
}

func splitLast(name string) (string, string) {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[:i], name[i+1:]
		}
	}
	return ".", name
}

// lnode returns the node name names itself, a final link not followed.
func (s *Store) lnode(op, name string) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return s.root, nil
	}
	p, base, err := s.parent(op, name)
	if err != nil {
		return nil, err
	}
	n, ok := p.children[base]
	if !ok {
		return nil, pathErr(op, name, fs.ErrNotExist)
	}
	return n, nil
}

// Lstat implements [store.Lstater].
func (s *Store) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n, err := s.lnode("lstat", name)
	if err != nil {
		return nil, err
	}
	return n.info(), nil
}

// RealName implements [store.Resolver].
func (s *Store) RealName(ctx context.Context, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", pathErr("realname", name, store.ErrInvalidName)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.resolve("realname", name, true)
}

// Symlink implements [store.Symlinker].
func (s *Store) Symlink(ctx context.Context, target, name string) error {
	if target == "" {
		return pathErr("symlink", name, fs.ErrInvalid)
	}
	if name == "." {
		return pathErr("symlink", name, fs.ErrExist)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, base, err := s.parent("symlink", name)
	if err != nil {
		return err
	}
	if _, ok := p.children[base]; ok {
		return pathErr("symlink", name, fs.ErrExist)
	}
	p.children[base] = &node{name: base, link: target, modTime: s.now()}
	p.modTime = s.now()
	s.hasLinks = true
	return nil
}

// Readlink implements [store.Symlinker].
func (s *Store) Readlink(ctx context.Context, name string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n, err := s.lnode("readlink", name)
	if err != nil {
		return "", err
	}
	if n.link == "" {
		return "", pathErr("readlink", name, fs.ErrInvalid)
	}
	return n.link, nil
}

// Chmod implements [store.AttrSetter].
func (s *Store) Chmod(ctx context.Context, name string, perm fs.FileMode) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.walk("chmod", name)
	if err != nil {
		return err
	}
	n.perm = perm & fs.ModePerm
	return nil
}

// Chtimes implements [store.AttrSetter].
func (s *Store) Chtimes(ctx context.Context, name string, mtime time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.walk("chtimes", name)
	if err != nil {
		return err
	}
	n.modTime = mtime
	return nil
}
