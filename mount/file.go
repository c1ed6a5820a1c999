//go:build linux

package mount

import (
	"context"
	"syscall"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// Open files of the FUSE face: each open(2) is a [Handle] of the shared Core (its spill
// file, its commit at close); this file only translates the kernel's requests.

// handle is one open(2) of a node.
type handle struct {
	*Handle
	m *fuseFS
}

var (
	_ gofs.FileReader   = (*handle)(nil)
	_ gofs.FileWriter   = (*handle)(nil)
	_ gofs.FileFlusher  = (*handle)(nil)
	_ gofs.FileFsyncer  = (*handle)(nil)
	_ gofs.FileReleaser = (*handle)(nil)
	_ gofs.NodeOpener   = (*node)(nil)
	_ gofs.NodeCreater  = (*node)(nil)
)

func (n *node) Open(ctx context.Context, flags uint32) (gofs.FileHandle, uint32, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	actor := ""
	if isWrite(int(flags)) || flags&syscall.O_TRUNC != 0 {
		actor = m.actor(ctx) // reading /proc only for a writer
	}
	h, err := m.Core.Open(ctx, n, actor, int(flags))
	if err != nil {
		return nil, 0, m.Errno(err)
	}
	fh := &handle{Handle: h, m: m}
	if isWrite(int(flags)) || flags&syscall.O_TRUNC != 0 {
		return fh, 0, 0
	}
	rh, fl := m.reader(ctx, n, fh)
	return rh, fl, 0
}

func (n *node) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*gofs.Inode, gofs.FileHandle, uint32, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	p := Join(n.Rel(), name)
	var ch *gofs.Inode
	mk := func() Key {
		ch = n.child(ctx, name, false)
		return ch.Operations().(*node)
	}
	perm := mode & 0o7777
	if perm != 0 {
		perm &^= m.umask(ctx)
	}
	h, err := m.Core.Create(ctx, p, m.actor(ctx), int(flags), perm, mk)
	if err != nil {
		return nil, nil, 0, m.Errno(err)
	}
	m.fill(ch.Operations().(*node), p, newInfo(p), &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, &handle{Handle: h, m: m}, 0, 0
}

// umask is the caller's umask as the kernel applied it: FUSE sends the mode before it, so
// the mount applies the usual 022.
func (m *fuseFS) umask(ctx context.Context) uint32 { return 0o022 }

func (h *handle) Read(ctx context.Context, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	n, fd, err := h.Handle.Read(detach(ctx), dest, off, true)
	if err != nil {
		return nil, h.m.Errno(err)
	}
	if fd >= 0 {
		// A host file the store opened: the kernel splices it, no copy through here.
		return fuse.ReadResultFd(uintptr(fd), off, len(dest)), 0
	}
	return fuse.ReadResultData(dest[:n]), 0
}

func (h *handle) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	n, err := h.Handle.Write(data, off)
	return uint32(n), h.m.Errno(err)
}

func (h *handle) Flush(ctx context.Context) syscall.Errno {
	return h.m.Errno(h.Handle.Flush(detach(ctx)))
}

func (h *handle) Fsync(ctx context.Context, flags uint32) syscall.Errno {
	return h.m.Errno(h.Handle.Sync(detach(ctx)))
}

func (h *handle) Release(ctx context.Context) syscall.Errno {
	h.Handle.Release(detach(ctx))
	return 0
}
