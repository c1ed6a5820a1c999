//go:build linux

package mount

import (
	"context"
	"io/fs"
	"sync"
	"sync/atomic"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

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

// reader returns the file handle of the read-only open h, and its open flags: h, with the
// store's file opened already, or a passHandle when that file is a host file and the mount
// is read-only. The kernel keeps what it cached of the file from earlier opens
// (FOPEN_KEEP_CACHE) when the file's size and modification time are those of the last
// open: writes through the mount pass through the kernel's cache, and a change made
// elsewhere moves them.
func (m *mfs) reader(ctx context.Context, h *handle) (gofs.FileHandle, uint32) {
	of := h.of
	of.mu.Lock()
	defer of.mu.Unlock()
	if of.spill != nil {
		return h, 0 // reads come from the writer's buffer
	}
	name, err := m.ws.Paths().StoreName(of.path())
	if err != nil {
		return h, 0 // readStore reports it at the first read
	}
	f, err := m.ws.Store().Open(ctx, name)
	if err != nil {
		return h, 0
	}
	h.rd, h.rdPos = f, 0
	var flags uint32
	if fi, err := f.Stat(); err == nil && of.n.read.same(fi) {
		flags = fuse.FOPEN_KEEP_CACHE
	}
	if fd, ok := f.(interface{ Fd() uintptr }); ok && m.ws.Settings().Mode == llmfs.ReadOnly {
		passOpens.Add(1)
		return &passHandle{handle: h, fd: int(fd.Fd())}, flags
	}
	return h, flags
}

// A readKey is a node's file as its last read-only open saw it: size and modification time.
type readKey struct {
	mu    sync.Mutex
	size  int64
	mtime int64 // 0: no open yet
}

// same records fi as the node's file and reports whether it is what the last open saw.
func (k *readKey) same(fi fs.FileInfo) bool {
	size, mtime := fi.Size(), fi.ModTime().UnixNano()
	k.mu.Lock()
	defer k.mu.Unlock()
	same := k.mtime != 0 && k.size == size && k.mtime == mtime
	k.size, k.mtime = size, mtime
	return same
}
