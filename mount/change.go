//go:build linux

package mount

import (
	"context"
	"io/fs"
	"syscall"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// The operations that change the tree: mkdir, unlink, rmdir, rename (links: link.go).

var (
	_ gofs.NodeMkdirer   = (*node)(nil)
	_ gofs.NodeUnlinker  = (*node)(nil)
	_ gofs.NodeRmdirer   = (*node)(nil)
	_ gofs.NodeRenamer   = (*node)(nil)
	_ gofs.NodeSymlinker = (*node)(nil)
	_ gofs.NodeLinker    = (*node)(nil)
	_ gofs.NodeFsyncer   = (*node)(nil)
)

func (n *node) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	p := join(n.rel(), name)
	if m.ws.Settings().Mode == llmfs.ReadOnly {
		return nil, syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) {
		return nil, syscall.EACCES
	}
	if _, err := m.stat(ctx, p); err == nil {
		return nil, syscall.EEXIST
	}
	actor := m.actor(ctx)
	if _, err := m.wsFor(p).With(llmfs.Actor(actor)).Mkdir(ctx, p); err != nil {
		return nil, m.errno(err)
	}
	m.mu.Lock()
	m.created[p] = true
	m.mu.Unlock()
	m.touch(p, actor)
	fi, err := m.stat(ctx, p)
	if err != nil {
		return nil, m.errno(err)
	}
	ch := n.child(ctx, name, true)
	m.fill(nil, p, fi, &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, 0
}

// mayRemove says whether the work mode lets the mount remove p: read-only never, full
// always, read-write only what this mount created (lock and temporary files).
func (m *mfs) mayRemove(p string) syscall.Errno {
	switch m.ws.Settings().Mode {
	case llmfs.ReadOnly:
		return syscall.EROFS
	case llmfs.Full:
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.created[p] {
		return 0
	}
	return syscall.EPERM
}

// remove removes the file or empty directory p through the workspace, as one change by
// actor: the mode was checked by mayRemove (a read-write workspace may remove what the
// mount created, which its Delete refuses).
func (m *mfs) remove(ctx context.Context, p, actor string) error {
	ws := m.wsFor(p)
	name, err := ws.Paths().StoreName(p)
	if err != nil {
		return err
	}
	return ws.History().Record(ctx, actor, llmfs.ChangeDelete, func(s store.Store) error { return s.Remove(ctx, name) })
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	ctx = detach(ctx)
	m := n.m
	p := join(n.rel(), name)
	if _, err := m.stat(ctx, p); err != nil {
		if of := m.openAt(p); of != nil && of.created {
			m.unlinkOpen(of)
			return 0
		}
		return m.errno(err)
	}
	if e := m.mayRemove(p); e != 0 {
		return e
	}
	actor := m.actor(ctx)
	if err := m.remove(ctx, p, actor); err != nil {
		return m.errno(err)
	}
	if of := m.openAt(p); of != nil {
		m.unlinkOpen(of)
	}
	m.forget(p)
	m.touch(p, actor)
	return 0
}

// unlinkOpen marks an open file removed: its descriptors still read and write their
// buffer, and nothing of it reaches the workspace any more.
func (m *mfs) unlinkOpen(of *openFile) {
	of.mu.Lock()
	of.unlinked = true
	of.mu.Unlock()
}

// forget drops what the session knew of p.
func (m *mfs) forget(p string) {
	m.mu.Lock()
	delete(m.meta, p)
	delete(m.created, p)
	m.mu.Unlock()
}

func (n *node) Rmdir(ctx context.Context, name string) syscall.Errno {
	ctx = detach(ctx)
	m := n.m
	p := join(n.rel(), name)
	fi, err := m.stat(ctx, p)
	if err != nil {
		return m.errno(err)
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	if e := m.mayRemove(p); e != 0 {
		return e
	}
	actor := m.actor(ctx)
	if err := m.remove(ctx, p, actor); err != nil {
		return m.errno(err)
	}
	m.forget(p)
	m.touch(p, actor)
	return 0
}

func (n *node) Rename(ctx context.Context, name string, newParent gofs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	ctx = detach(ctx)
	m := n.m
	src := join(n.rel(), name)
	dst := join(newParent.EmbeddedInode().Operations().(*node).rel(), newName)
	if m.ws.Settings().Mode == llmfs.ReadOnly {
		return syscall.EROFS
	}
	if flags&^uint32(renameNoReplace) != 0 {
		return syscall.EINVAL // RENAME_EXCHANGE, RENAME_WHITEOUT
	}
	if m.ws.Paths().DeniedPath(ctx, dst) {
		return syscall.EACCES
	}
	if m.ignored(src) != m.ignored(dst) {
		return syscall.EXDEV // one side is journaled and the other not: mv copies
	}
	if of := m.openAt(src); of != nil {
		if err := m.commit(ctx, of); err != nil {
			return m.errno(err)
		}
	}
	sfi, err := m.stat(ctx, src)
	if err != nil {
		return m.errno(err)
	}
	actor := m.actor(ctx)
	ws := m.wsFor(src).With(llmfs.Actor(actor))
	if sfi.Mode()&fs.ModeSymlink != 0 {
		// The session layer keeps contents, not links: a link moves beneath it (link.go).
		bws, err := m.linkMoveBase(ctx, src, dst)
		if err != nil {
			return m.errno(err)
		}
		ws = bws.With(llmfs.Actor(actor))
	}
	dfi, err := m.stat(ctx, dst)
	switch {
	case err != nil:
		_, err = ws.Move(ctx, src, dst)
	case flags&renameNoReplace != 0:
		return syscall.EEXIST
	default:
		err = m.replace(ctx, ws, src, dst, dfi.IsDir())
	}
	if err != nil {
		return m.errno(err)
	}
	m.renamed(src, dst)
	m.touch(src, actor)
	m.touch(dst, actor)
	return 0
}

const renameNoReplace = 1 // RENAME_NOREPLACE

// replace renames src over the existing dst in one change set: the atomic replace that
// editors, sed -i and git rely on (the workspace's Move refuses an existing destination).
func (m *mfs) replace(ctx context.Context, ws *llmfs.Workspace, src, dst string, dir bool) error {
	sname, err := ws.Paths().StoreName(src)
	if err != nil {
		return err
	}
	dname, err := ws.Paths().StoreName(dst)
	if err != nil {
		return err
	}
	return ws.History().Record(ctx, ws.Settings().Actor, llmfs.ChangeMove, func(s store.Store) error {
		if err := s.Remove(ctx, dname); err != nil {
			return err
		}
		return s.Rename(ctx, sname, dname)
	})
}

// renamed moves what the session knew of src (and below it) to dst.
func (m *mfs) renamed(src, dst string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	moveKeys(m.meta, src, dst)
	moveKeys(m.created, src, dst)
}

func moveKeys[V any](mp map[string]V, src, dst string) {
	for k, v := range mp {
		if k == src || len(k) > len(src) && k[:len(src)+1] == src+"/" {
			delete(mp, k)
			mp[dst+k[len(src):]] = v
		}
	}
}

func (n *node) Fsync(ctx context.Context, f gofs.FileHandle, flags uint32) syscall.Errno {
	ctx = detach(ctx)
	if h, ok := f.(*handle); ok {
		return h.Fsync(ctx, flags)
	}
	return n.m.errno(n.m.synced(ctx, n.rel()))
}

func (n *node) Setattr(ctx context.Context, f gofs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	ctx = detach(ctx)
	m := n.m
	p := n.rel()
	if m.ws.Settings().Mode == llmfs.ReadOnly {
		return syscall.EROFS
	}
	if sz, ok := in.GetSize(); ok {
		if e := n.truncate(ctx, int64(sz)); e != 0 {
			return e
		}
	}
	m.mu.Lock()
	md := m.meta[p]
	if mode, ok := in.GetMode(); ok {
		md.perm = mode & 0o7777
	}
	if mt, ok := in.GetMTime(); ok {
		md.mtime = mt
	}
	m.meta[p] = md
	if of := m.files[n]; of != nil {
		if mt, ok := in.GetMTime(); ok {
			of.mtime = mt
		}
	}
	m.mu.Unlock()
	if e := m.keepAttrs(ctx, p, in); e != 0 {
		return e
	}
	return n.Getattr(ctx, f, out)
}

// truncate sets the size of n's file: in its buffer when open for writing, else through
// a buffer committed at once.
func (n *node) truncate(ctx context.Context, size int64) syscall.Errno {
	m := n.m
	of := m.acquire(n)
	defer m.release(of)
	of.mu.Lock()
	err := m.buffer(ctx, of, size == 0)
	if err == nil && of.size != size {
		err = of.spill.Truncate(size)
		of.size, of.dirty, of.mtime = size, true, time.Now()
		of.actor = m.actor(ctx)
	}
	of.mu.Unlock()
	if err != nil {
		return m.errno(err)
	}
	of.mu.Lock()
	writing := of.writers > 0
	of.mu.Unlock()
	if writing {
		return 0 // committed when the writer closes (the kernel may not say which handle)
	}
	return m.errno(m.commit(ctx, of))
}
