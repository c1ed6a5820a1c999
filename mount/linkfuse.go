//go:build linux

package mount

import (
	"context"
	"io/fs"
	"syscall"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// The FUSE requests of links: symlink, readlink and link, translated into the Core's.

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

func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	ctx = detach(ctx)
	p := Join(n.Rel(), name)
	if err := n.m.Core.Symlink(ctx, target, p, n.m.actor(ctx)); err != nil {
		return nil, n.m.Errno(err)
	}
	return n.made(ctx, name, p, out)
}

func (n *node) Readlink(ctx context.Context) ([]byte, syscall.Errno) {
	target, err := n.m.Core.Readlink(detach(ctx), n.Rel())
	if err != nil {
		return nil, n.m.Errno(err)
	}
	return []byte(target), 0
}

func (n *node) Link(ctx context.Context, target gofs.InodeEmbedder, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	ctx = detach(ctx)
	src, ok := target.(*node)
	if !ok {
		return nil, syscall.EXDEV
	}
	p := Join(n.Rel(), name)
	if err := n.m.Core.Link(ctx, src.Rel(), p, n.m.actor(ctx)); err != nil {
		return nil, n.m.Errno(err)
	}
	return n.made(ctx, name, p, out)
}

// made describes to the kernel the entry name just made at p.
func (n *node) made(ctx context.Context, name, p string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	fi, err := n.m.stat(ctx, p)
	if err != nil {
		return nil, n.m.Errno(err)
	}
	ch := n.childMode(ctx, name, fileType(fi))
	n.m.fill(ch.Operations().(*node), p, fi, &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, 0
}
