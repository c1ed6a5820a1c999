//go:build linux

package mount

import (
	"context"
	"syscall"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// The FUSE requests that change the tree: mkdir, unlink, rmdir, rename, setattr (links:
// linkfuse.go). The rules are the Core's.

var (
	_ gofs.NodeMkdirer  = (*node)(nil)
	_ gofs.NodeUnlinker = (*node)(nil)
	_ gofs.NodeRmdirer  = (*node)(nil)
	_ gofs.NodeRenamer  = (*node)(nil)
	_ gofs.NodeFsyncer  = (*node)(nil)
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
	if err := m.SetAttr(ctx, n, n.Rel(), m.actor(ctx), perm, mtime); err != nil {
		return m.Errno(err)
	}
	return n.Getattr(ctx, f, out)
}
