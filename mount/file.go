//go:build linux

package mount

import (
	"context"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/llmfs/llmfs"
)

// Open files. A file opened for writing gets a spill file of the mount's own (never the
// whole content in memory); its writes go there, and the content reaches the workspace,
// as one write, when a writer closes the file (flush) or syncs it. Handles of one node
// share its buffer, so a process reads what it wrote.

// openFile is the state of one open node.
type openFile struct {
	mu       sync.Mutex
	n        *node
	spill    *os.File // the write buffer; nil while no handle writes
	size     int64    // of the buffer
	dirty    bool     // the buffer holds what the workspace has not
	created  bool     // made by create: the workspace has no file yet
	unlinked bool     // removed while open: nothing to commit any more
	failed   error    // a write was refused: the buffer is dropped, the file stays as it was
	wrote    bool     // a write(2) since the last commit (a truncation alone waits for the close)
	mtime    time.Time
	refs     int
	writers  int    // handles open for writing
	actor    string // who wrote last
}

func (of *openFile) path() string { return of.n.rel() }

// handle is one open(2) of a node.
type handle struct {
	m      *mfs
	of     *openFile
	write  bool
	append bool
	rd     fs.File // the store's file, for reading a file that has no buffer
	rdPos  int64
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

// fileOf returns the open state of n, or nil.
func (m *mfs) fileOf(n *node) *openFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.files[n]
}

// openAt returns the open file whose node is at p, or nil.
func (m *mfs) openAt(p string) *openFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	for n, of := range m.files {
		if n.rel() == p {
			return of
		}
	}
	return nil
}

// acquire returns n's open state, made if needed, with one more reference.
func (m *mfs) acquire(n *node) *openFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	of := m.files[n]
	if of == nil {
		of = &openFile{n: n}
		m.files[n] = of
	}
	of.refs++
	return of
}

func isWrite(flags uint32) bool {
	return flags&syscall.O_ACCMODE == syscall.O_WRONLY || flags&syscall.O_ACCMODE == syscall.O_RDWR
}

func (n *node) Open(ctx context.Context, flags uint32) (gofs.FileHandle, uint32, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	p := n.rel()
	w := isWrite(flags) || flags&syscall.O_TRUNC != 0
	if w && m.ws.Settings().Mode == llmfs.ReadOnly {
		return nil, 0, syscall.EROFS
	}
	if of := m.fileOf(n); of == nil || !of.created {
		fi, err := m.stat(ctx, p)
		if err != nil {
			return nil, 0, m.errno(err)
		}
		if fi.IsDir() && w {
			return nil, 0, syscall.EISDIR
		}
	}
	of := m.acquire(n)
	h := &handle{m: m, of: of, write: w, append: flags&syscall.O_APPEND != 0}
	if w {
		of.mu.Lock()
		err := m.buffer(ctx, of, flags&syscall.O_TRUNC != 0)
		of.actor = m.actor(ctx)
		if err == nil {
			of.writers++
		}
		of.mu.Unlock()
		if err != nil {
			m.release(of)
			return nil, 0, m.errno(err)
		}
		m.writers.Add(1)
		return h, 0, 0
	}
	fh, flags := m.reader(ctx, h)
	return fh, flags, 0
}

// buffer gives of a spill file holding the file's content (none when truncating).
func (m *mfs) buffer(ctx context.Context, of *openFile, truncate bool) error {
	if of.spill != nil {
		if truncate {
			of.size, of.dirty = 0, true
			return of.spill.Truncate(0)
		}
		return nil
	}
	f, err := os.CreateTemp(m.spillDir, "spill-*")
	if err != nil {
		return err
	}
	os.Remove(f.Name()) // the open descriptor is all the mount needs; nothing to clean after a crash
	of.spill, of.size = f, 0
	if truncate || of.created {
		of.dirty = true
		return nil
	}
	name, err := m.ws.Paths().StoreName(of.path())
	if err != nil {
		return err
	}
	src, err := m.ws.Store().Open(ctx, name)
	if err != nil {
		return err
	}
	defer src.Close()
	n, err := io.Copy(f, src)
	of.size = n
	return err
}

func (n *node) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*gofs.Inode, gofs.FileHandle, uint32, syscall.Errno) {
	ctx = detach(ctx)
	m := n.m
	p := join(n.rel(), name)
	if m.ws.Settings().Mode == llmfs.ReadOnly {
		return nil, nil, 0, syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) {
		return nil, nil, 0, syscall.EACCES
	}
	if _, err := m.stat(ctx, p); err == nil {
		if flags&syscall.O_EXCL != 0 {
			return nil, nil, 0, syscall.EEXIST
		}
	} else if of := m.openAt(p); of != nil && flags&syscall.O_EXCL != 0 {
		return nil, nil, 0, syscall.EEXIST
	}
	ch := n.child(ctx, name, false)
	cn := ch.Operations().(*node)
	of := m.acquire(cn)
	of.mu.Lock()
	exists := false
	if _, err := m.stat(ctx, p); err == nil {
		exists = true
	}
	of.created = !exists
	err := m.buffer(ctx, of, true)
	of.actor = m.actor(ctx)
	of.mtime = time.Now()
	of.wrote = true // a new file exists once its creator closes it, even empty
	if err == nil {
		of.writers++
	}
	of.mu.Unlock()
	if err != nil {
		m.release(of)
		return nil, nil, 0, m.errno(err)
	}
	m.writers.Add(1)
	m.mu.Lock()
	if !exists {
		m.created[p] = true
	}
	if perm := mode & 0o7777; perm != 0 {
		m.meta[p] = meta{perm: perm &^ m.umask(ctx)}
	}
	m.mu.Unlock()
	m.fill(cn, p, newInfo(p), &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, &handle{m: m, of: of, write: true, append: flags&syscall.O_APPEND != 0}, 0, 0
}

// umask is the caller's umask as the kernel applied it: FUSE sends the mode before it, so
// the mount applies the usual 022.
func (m *mfs) umask(ctx context.Context) uint32 { return 0o022 }

func (h *handle) Read(ctx context.Context, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	ctx = detach(ctx)
	of := h.of
	of.mu.Lock()
	if of.spill != nil {
		defer of.mu.Unlock()
		n, err := of.spill.ReadAt(dest, off)
		if err != nil && err != io.EOF {
			return nil, syscall.EIO
		}
		return fuse.ReadResultData(dest[:n]), 0
	}
	of.mu.Unlock()
	return h.readStore(ctx, dest, off)
}

// readStore reads from the workspace's store: at off directly when its file can, else by
// reading on (and opening again to go back).
func (h *handle) readStore(ctx context.Context, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	h.of.mu.Lock()
	defer h.of.mu.Unlock()
	res, err := h.readStoreAt(ctx, dest, off)
	if err != nil && h.rd != nil {
		// The file the handle holds may have gone from under it: the session layer's copy
		// of a file the applier has just carried to the workspace (the store fails reads of
		// a file whose content was replaced rather than serve a mix). The same content is
		// there to open again.
		h.rd.Close()
		h.rd = nil
		res, err = h.readStoreAt(ctx, dest, off)
	}
	if err != nil {
		return nil, h.m.errno(err)
	}
	return res, 0
}

// readStoreAt is readStore with the handle's lock held.
func (h *handle) readStoreAt(ctx context.Context, dest []byte, off int64) (fuse.ReadResult, error) {
	if h.rd == nil || off < h.rdPos {
		if h.rd != nil {
			h.rd.Close()
		}
		name, err := h.m.ws.Paths().StoreName(h.of.path())
		if err != nil {
			return nil, err
		}
		f, err := h.m.ws.Store().Open(ctx, name)
		if err != nil {
			return nil, err
		}
		h.rd, h.rdPos = f, 0
	}
	if fd, ok := h.rd.(interface{ Fd() uintptr }); ok {
		// A host file the store opened: the kernel splices it, no copy through here.
		return fuse.ReadResultFd(fd.Fd(), off, len(dest)), nil
	}
	if ra, ok := h.rd.(io.ReaderAt); ok {
		n, err := ra.ReadAt(dest, off)
		if err != nil && err != io.EOF {
			return nil, err
		}
		return fuse.ReadResultData(dest[:n]), nil
	}
	if off > h.rdPos {
		if _, err := io.CopyN(io.Discard, h.rd, off-h.rdPos); err != nil {
			h.rdPos = off
			return fuse.ReadResultData(nil), nil
		}
		h.rdPos = off
	}
	n, err := io.ReadFull(h.rd, dest)
	h.rdPos += int64(n)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return fuse.ReadResultData(dest[:n]), nil
}

func (h *handle) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	if !h.write {
		return 0, syscall.EBADF
	}
	of := h.of
	of.mu.Lock()
	defer of.mu.Unlock()
	if of.failed != nil {
		return 0, h.m.errno(of.failed)
	}
	if h.append {
		off = of.size
	}
	end := off + int64(len(data))
	if q := h.m.ws.Settings().Quota; q.MaxFileBytes > 0 && end > q.MaxFileBytes && end > of.size {
		// Refused at the write, not only at close: the process learns it at once, and the
		// buffer is dropped, so the file stays as it was.
		of.failed = &llmfs.Error{Code: llmfs.CodeQuotaExceeded, Path: of.path(), Msg: "file larger than the quota allows"}
		return 0, syscall.EDQUOT
	}
	n, err := of.spill.WriteAt(data, off)
	if err != nil {
		return uint32(n), syscall.EIO
	}
	of.size = max(of.size, end)
	of.dirty, of.wrote = true, true
	of.mtime = time.Now() // the actor is the opener's: reading /proc for each write(2) would cost
	return uint32(n), 0
}

// Flush is close(2) of one descriptor: what was written goes to the workspace now, so that
// a refusal (quota, mode) is close's error. A truncation with nothing written yet waits
// for the last close: a shell's "> file" closes a copy of the descriptor before the
// command writes, and a write refused then must leave the file as it was.
func (h *handle) Flush(ctx context.Context) syscall.Errno {
	ctx = detach(ctx)
	if !h.write {
		return 0
	}
	h.of.mu.Lock()
	wrote := h.of.wrote
	h.of.mu.Unlock()
	if !wrote {
		return 0
	}
	return h.m.errno(h.m.commit(ctx, h.of))
}

func (h *handle) Fsync(ctx context.Context, flags uint32) syscall.Errno {
	ctx = detach(ctx)
	if !h.write {
		return 0
	}
	if err := h.m.commit(ctx, h.of); err != nil {
		return h.m.errno(err)
	}
	return h.m.errno(h.m.synced(ctx, h.of.path()))
}

func (h *handle) Release(ctx context.Context) syscall.Errno {
	ctx = detach(ctx)
	if h.rd != nil {
		h.rd.Close()
	}
	if h.write {
		h.of.mu.Lock()
		h.of.writers--
		last := h.of.writers == 0
		h.of.mu.Unlock()
		if last {
			h.m.commit(ctx, h.of) // a truncation alone, or after a failed flush: quietly
		}
		h.m.writers.Add(-1)
	}
	h.m.release(h.of)
	return 0
}

// release drops a reference to of, and its buffer with the last.
func (m *mfs) release(of *openFile) {
	m.mu.Lock()
	of.refs--
	last := of.refs <= 0
	if last {
		delete(m.files, of.n)
	}
	m.mu.Unlock()
	if last {
		of.mu.Lock()
		if of.spill != nil {
			of.spill.Close()
			of.spill = nil
		}
		of.mu.Unlock()
	}
	m.changed()
}

// commit writes of's buffer to the workspace when it holds something new.
func (m *mfs) commit(ctx context.Context, of *openFile) error {
	of.mu.Lock()
	defer of.mu.Unlock()
	if !of.dirty || of.unlinked || of.spill == nil {
		return nil
	}
	if of.failed != nil {
		of.dirty, of.wrote = false, false // nothing half-written: the file keeps its content
		return of.failed
	}
	p := of.path()
	// Streamed from the spill file: a large file is never held whole in memory.
	ws := m.wsFor(p).With(llmfs.Actor(of.actor))
	if _, err := ws.WriteFrom(ctx, p, io.NewSectionReader(of.spill, 0, of.size), llmfs.WriteOptions{}); err != nil {
		of.dirty = false
		of.failed = err
		return err
	}
	of.dirty, of.created, of.wrote = false, false, false
	m.touch(p, of.actor)
	return nil
}
