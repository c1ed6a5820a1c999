//go:build linux

package mount

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"syscall"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// Links and attributes, through the workspace's operations (Workspace.Symlink and
// Workspace.SetAttr), so they keep after the mount ends: symbolic links stored as links,
// chmod and utimensat kept by the store, hard links passed to a host directory (link(2))
// and refused with EPERM elsewhere.

var (
	_ gofs.NodeSymlinker  = (*node)(nil)
	_ gofs.NodeLinker     = (*node)(nil)
	_ gofs.NodeReadlinker = (*node)(nil)
)

// fileType is the S_IF* type of fi.
func fileType(fi fs.FileInfo) uint32 {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return syscall.S_IFLNK
	case fi.IsDir():
		return syscall.S_IFDIR
	}
	return syscall.S_IFREG
}

// Symlink makes a link stored as written; the workspace refuses a denied name or target.
func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	p := join(n.rel(), name)
	if m.ws.Settings().Mode == llmfs.ReadOnly {
		return nil, syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) {
		return nil, syscall.EACCES
	}
	actor := m.actor(ctx)
	ws, err := m.onBase(ctx, p)
	if err == nil {
		_, err = ws.With(llmfs.Actor(actor)).Symlink(ctx, target, p)
	}
	if err != nil {
		return nil, m.linkErrno(err)
	}
	return n.made(ctx, name, p, actor, out)
}

// made notes p as made by this mount and describes it to the kernel.
func (n *node) made(ctx context.Context, name, p, actor string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	m := n.m
	m.mu.Lock()
	m.created[p] = true
	m.mu.Unlock()
	m.touch(p, actor)
	fi, err := m.stat(ctx, p)
	if err != nil {
		return nil, m.errno(err)
	}
	ch := n.childMode(ctx, name, fileType(fi))
	m.fill(ch.Operations().(*node), p, fi, &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, 0
}

// linkErrno is errno for a refusal of a store that keeps no links: EPERM, as link(2) on a
// file system without them says.
func (m *mfs) linkErrno(err error) syscall.Errno {
	if errors.Is(err, errors.ErrUnsupported) {
		return syscall.EPERM
	}
	return m.errno(err)
}

func (n *node) Readlink(ctx context.Context) ([]byte, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	p := n.rel()
	if m.ws.Paths().DeniedPath(ctx, p) {
		return nil, syscall.ENOENT
	}
	name, err := m.ws.Paths().StoreName(p)
	if err != nil {
		return nil, m.errno(err)
	}
	sl, ok := m.ws.Store().(interface {
		Readlink(ctx context.Context, name string) (string, error)
	})
	if !ok {
		return nil, syscall.EINVAL
	}
	target, err := sl.Readlink(ctx, name)
	if err != nil {
		return nil, m.errno(err)
	}
	return []byte(target), 0
}

// Link gives a file a second name: link(2) on a host directory, both names inside the root,
// journaled as a new file; EPERM on a store that keeps one name per file.
func (n *node) Link(ctx context.Context, target gofs.InodeEmbedder, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	p := join(n.rel(), name)
	src, ok := target.(*node)
	if !ok {
		return nil, syscall.EXDEV
	}
	old := src.rel()
	if m.ws.Settings().Mode == llmfs.ReadOnly {
		return nil, syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) || m.ws.Paths().DeniedPath(ctx, old) {
		return nil, syscall.EACCES
	}
	if of := m.openAt(old); of != nil {
		if e := m.errno(m.commit(ctx, of)); e != 0 {
			return nil, e // the new name must share what the old one holds
		}
	}
	if _, err := m.onBase(ctx, old); err != nil {
		return nil, m.errno(err)
	}
	ws, err := m.onBase(ctx, p)
	if err != nil {
		return nil, m.errno(err)
	}
	if _, ok := ws.Store().(store.HardLinker); !ok {
		return nil, syscall.EPERM
	}
	oldName, err := ws.Paths().StoreName(old)
	if err != nil {
		return nil, m.errno(err)
	}
	newName, err := ws.Paths().StoreName(p)
	if err != nil {
		return nil, m.errno(err)
	}
	actor := m.actor(ctx)
	err = ws.History().Record(ctx, actor, "link", func(s store.Store) error {
		hl, ok := s.(store.HardLinker)
		if !ok {
			return &fs.PathError{Op: "link", Path: newName, Err: errors.ErrUnsupported}
		}
		return hl.Link(ctx, oldName, newName)
	})
	if err != nil {
		return nil, m.linkErrno(err)
	}
	return n.made(ctx, name, p, actor, out)
}

// keepAttrs passes a chmod or a utimensat to the workspace, so it outlasts the mount. A file
// created and still open is not in the workspace yet: its attributes go with its first
// write (keepCreated).
func (m *mfs) keepAttrs(ctx context.Context, p string, in *fuse.SetAttrIn) syscall.Errno {
	var a llmfs.Attrs
	if mode, ok := in.GetMode(); ok {
		a.SetPerm, a.Perm = true, fs.FileMode(mode&0o777)
	}
	if mt, ok := in.GetMTime(); ok {
		a.ModTime = mt
	}
	if !a.SetPerm && a.ModTime.IsZero() {
		return 0
	}
	if _, err := m.stat(ctx, p); err != nil {
		return 0 // not in the workspace yet (or gone): the session keeps it
	}
	ws, err := m.onBase(ctx, p)
	if err == nil {
		_, err = ws.With(llmfs.Actor(m.actor(ctx))).SetAttr(ctx, p, a)
	}
	if err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return m.errno(err)
	}
	return 0
}

// keepCreated gives a file just written to the workspace the mode it was created with or
// set to while open, when the store has another (an executable a linker wrote).
func (m *mfs) keepCreated(ctx context.Context, p string) {
	m.mu.Lock()
	md := m.meta[p]
	m.mu.Unlock()
	if md.perm == 0 {
		return
	}
	if fi, err := m.stat(ctx, p); err != nil || uint32(fi.Mode().Perm()) == md.perm&0o777 {
		return
	}
	ws, err := m.onBase(ctx, p)
	if err != nil {
		return
	}
	ws.SetAttr(ctx, p, llmfs.Attrs{SetPerm: true, Perm: fs.FileMode(md.perm & 0o777)}) // best effort: the session shows it anyway
}

// onBase returns the workspace a link or an attribute change of p is made on. The session
// layer keeps file contents only, so such a change goes beneath it, after the layer's
// pending changes at p and above it (the directories it needs, the file it changes) are
// applied. Under llmfs run these land before the run ends, as change sets of their own.
func (m *mfs) onBase(ctx context.Context, p string) (*llmfs.Workspace, error) {
	if m.opts.Layer == nil || (m.direct != nil && m.ignored(p)) {
		return m.wsFor(p), nil
	}
	groups := map[string][]string{}
	m.mu.Lock()
	for q, a := range m.pending {
		if q == p || strings.HasPrefix(p, q+"/") {
			groups[a] = append(groups[a], q)
		}
	}
	m.mu.Unlock()
	if len(groups) > 0 {
		if err := m.apply(ctx, groups); err != nil {
			return nil, err
		}
	}
	return m.opts.Base, nil
}

// linkMoveBase returns the workspace a link moves on from src to dst: beneath the session
// layer, after what is pending at both ends is applied.
func (m *mfs) linkMoveBase(ctx context.Context, src, dst string) (*llmfs.Workspace, error) {
	if _, err := m.onBase(ctx, dst); err != nil {
		return nil, err
	}
	return m.onBase(ctx, src)
}
