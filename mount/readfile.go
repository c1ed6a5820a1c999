package mount

import (
	"context"
	"io/fs"
)

// Reading a file the store holds. A handle that reads (no write buffer) keeps the store's
// file open from its open to its release, and every read uses it: a file is opened once,
// not at each request. A host directory's file is then a host descriptor that a face can
// hand on (FUSE splices it, or passes it through to the kernel) instead of copying.

// A StoreFile is what [Handle.Hold] opened: the store's file as the open found it.
type StoreFile struct {
	Info fs.FileInfo // its size and modification time, as the open saw them
	Fd   int         // a host file's descriptor, owned by the handle; -1 otherwise
}

// Hold opens the store's file for the handle's reads now, rather than at its first read,
// and reports it. ok is false when the handle reads a write buffer (another handle writes
// the file) or the file cannot be opened; its first read then reports why.
func (h *Handle) Hold(ctx context.Context) (sf StoreFile, ok bool) {
	of := h.of
	of.mu.Lock()
	defer of.mu.Unlock()
	if of.spill != nil || h.rd != nil {
		return StoreFile{}, false
	}
	name, err := h.m.ws.Paths().StoreName(of.path())
	if err != nil {
		return StoreFile{}, false
	}
	f, err := h.m.ws.Store().Open(ctx, name)
	if err != nil {
		return StoreFile{}, false
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return StoreFile{}, false
	}
	h.rd, h.rdPos = f, 0
	sf = StoreFile{Info: fi, Fd: -1}
	if d, ok := f.(interface{ Fd() uintptr }); ok {
		sf.Fd = int(d.Fd())
	}
	return sf, true
}
