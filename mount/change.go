//go:build linux

package mount

import (
	"context"
	"syscall"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// The FUSE requests that change the tree: mkdir, unlink, rmdir, rename, setattr, and
// what the stores cannot keep (hard and symbolic links). The rules are the Core's.

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
	p := Join(n.Rel(), name)
	if err := m.Core.Mkdir(ctx, p, m.actor(ctx)); err != nil {
		return nil, m.Errno(err)
	}
	fi, err := m.stat(ctx, p)
	if err != nil {
		return nil, m.Errno(err)
	}
	ch := n.child(ctx, name, true)
	m.fill(nil, p, fi, &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, 0
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	ctx = detach(ctx)
	return n.m.Errno(n.m.Core.Unlink(ctx, Join(n.Rel(), name), n.m.actor(ctx)))
}

func (n *node) Rmdir(ctx context.Context, name string) syscall.Errno {
	ctx = detach(ctx)
	return n.m.Errno(n.m.Core.Rmdir(ctx, Join(n.Rel(), name), n.m.actor(ctx)))
}

const renameNoReplace = 1 // RENAME_NOREPLACE

func (n *node) Rename(ctx context.Context, name string, newParent gofs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	ctx = detach(ctx)
	m := n.m
	src := Join(n.Rel(), name)
	dst := Join(newParent.EmbeddedInode().Operations().(*node).Rel(), newName)
	if m.ReadOnly() {
		return syscall.EROFS
	}
	if flags&^uint32(renameNoReplace) != 0 {
		return syscall.EINVAL // RENAME_EXCHANGE, RENAME_WHITEOUT
	}
	return m.Errno(m.Core.Rename(ctx, src, dst, m.actor(ctx), flags&renameNoReplace != 0))
}

// Symlink: no store keeps symbolic links it is asked to make (the Store interface has no
// such operation), so the mount refuses them rather than keep one only in memory.
func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	return nil, syscall.EPERM
}

// Link: hard links are refused (EPERM); git and most tools fall back to a copy or rename.
func (n *node) Link(ctx context.Context, target gofs.InodeEmbedder, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	return nil, syscall.EPERM
}

func (n *node) Fsync(ctx context.Context, f gofs.FileHandle, flags uint32) syscall.Errno {
	ctx = detach(ctx)
	if h, ok := f.(*handle); ok {
		return h.Fsync(ctx, flags)
	}
	return n.m.Errno(n.m.synced(ctx, n.Rel()))
}

func (n *node) Setattr(ctx context.Context, f gofs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	ctx = detach(ctx)
	m := n.m
	if m.ReadOnly() {
		return syscall.EROFS
	}
	if sz, ok := in.GetSize(); ok {
		if err := m.Truncate(ctx, n, m.actor(ctx), int64(sz)); err != nil {
			return m.Errno(err)
		}
	}
	var perm *uint32
	var mtime *time.Time
	if mode, ok := in.GetMode(); ok {
		perm = &mode
	}
	if mt, ok := in.GetMTime(); ok {
		mtime = &mt
	}
	if err := m.SetAttr(n, n.Rel(), perm, mtime); err != nil {
		return m.Errno(err)
	}
	return n.Getattr(ctx, f, out)
}
