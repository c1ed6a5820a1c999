//go:build linux

package mount

import (
	"context"
	"sync/atomic"

	gofs "github.com/hanwen/go-fuse/v2/fs"

	"github.com/llmfs/llmfs"
)

// Reading a host file. A read-only open of a file that the store holds as a host file (a
// host directory's, not yet changed in the session layer) is opened through the store (the
// sandbox and deny rules apply as to any open) and kept open for the handle's reads, each
// spliced from its descriptor by the kernel (see readStore): no copy through the mount.
// On a read-only mount the descriptor is also handed to the kernel for FUSE passthrough
// (Linux 6.9 and later, as root): the kernel then reads the file directly and the mount
// does no work per read. Only there: while an inode has a passthrough file open, the
// kernel refuses (EIO) any open of it that is not passthrough too, and a write must go to
// the mount's buffer. (A reader that opened the file before a writer reads the writer's
// buffer, as every handle of the node does, once the writer has opened it.)

// passHandle is a read-only handle whose reads the kernel may pass through to fd. Only
// such handles offer a descriptor: a handle that writes never does, so that no write
// bypasses the mount (go-fuse shares a node's backing file among the handles that offer
// one).
type passHandle struct {
	*handle
	fd int
}

var _ gofs.FilePassthroughFder = (*passHandle)(nil)

// passOpens counts the passHandles made (for the tests).
var passOpens atomic.Int64

// PassthroughFd implements [gofs.FilePassthroughFder].
func (p *passHandle) PassthroughFd() (int, bool) { return p.fd, true }

// reader returns the file handle of the read-only open h: h, with the store's file opened
// already, or a passHandle when that file is a host file and nothing writes the node.
func (m *mfs) reader(ctx context.Context, h *handle) gofs.FileHandle {
	of := h.of
	of.mu.Lock()
	defer of.mu.Unlock()
	if of.spill != nil {
		return h // reads come from the writer's buffer
	}
	name, err := m.ws.Paths().StoreName(of.path())
	if err != nil {
		return h // readStore reports it at the first read
	}
	f, err := m.ws.Store().Open(ctx, name)
	if err != nil {
		return h
	}
	h.rd, h.rdPos = f, 0
	if fd, ok := f.(interface{ Fd() uintptr }); ok && m.ws.Settings().Mode == llmfs.ReadOnly {
		passOpens.Add(1)
		return &passHandle{handle: h, fd: int(fd.Fd())}
	}
	return h
}
