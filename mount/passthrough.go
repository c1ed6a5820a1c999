//go:build linux

package mount

import (
	"context"
	"io/fs"
	"sync"
	"sync/atomic"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// The FUSE face's read fast path. A read-only open holds the store's file from the start
// ([Handle.Hold]); a host file (a host directory's, not yet changed in the session layer,
// opened through the store, so the sandbox and deny rules apply as to any open) is then
// spliced by the kernel from its descriptor at each read (see handle.Read): no copy
// through the mount.
//
// On a read-only mount the descriptor is also handed to the kernel for FUSE passthrough
// (Linux 6.9 and later, as root): the kernel then reads the file directly and the mount
// does no work per read. Only there: while an inode has a passthrough file open, the
// kernel refuses (EIO) any open of it that is not passthrough too, and a write must go to
// the mount's buffer.
//
// The kernel keeps what it cached of a file from earlier opens (FOPEN_KEEP_CACHE) when
// the file's size and modification time are those its last read-only open saw: writes
// through the mount pass through the kernel's cache, and a change made elsewhere moves
// them.

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

// reader returns the file handle of the read-only open h of n, and its open flags.
func (m *fuseFS) reader(ctx context.Context, n *node, h *handle) (gofs.FileHandle, uint32) {
	sf, ok := h.Hold(ctx)
	if !ok {
		return h, 0 // reads come from a writer's buffer, or the first read reports an error
	}
	var flags uint32
	if n.read.same(sf.Info) {
		flags = fuse.FOPEN_KEEP_CACHE
	}
	if sf.Fd >= 0 && m.ReadOnly() {
		passOpens.Add(1)
		return &passHandle{handle: h, fd: sf.Fd}, flags
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
