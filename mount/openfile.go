package mount

import (
	"context"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/llmfs/llmfs"
)

// Open files. A file opened for writing gets a spill file of the mount's own (never the
// whole content in memory); its writes go there, and the content reaches the workspace,
// as one write, when a writer closes the file (flush) or syncs it. Handles of one file
// share its buffer, so a process reads what it wrote.

// A Key names an open file for as long as it is open: a face's node (FUSE: the kernel's
// tree moves it on rename) or anything else whose Rel is the file's current path.
type Key interface {
	// Rel is the file's path relative to the root ("." for the root).
	Rel() string
}

// openFile is the state of one open file.
type openFile struct {
	mu       sync.Mutex
	key      Key
	spill    *os.File // the write buffer; nil while no handle writes
	size     int64    // of the buffer
	dirty    bool     // the buffer holds what the workspace has not
	created  bool     // made by create: the workspace has no file yet
	unlinked bool     // removed while open: nothing to commit any more
	failed   error    // a write was refused: the buffer is dropped, the file stays as it was
	wrote    bool     // a write since the last commit (a truncation alone waits for the close)
	mtime    time.Time
	refs     int
	writers  int    // handles open for writing
	actor    string // who wrote last
}

func (of *openFile) path() string { return of.key.Rel() }

// A Handle is one open of a file by a face (one open(2) under FUSE).
type Handle struct {
	m      *Core
	of     *openFile
	write  bool
	append bool
	rd     fs.File // the store's file, for reading a file that has no buffer
	rdPos  int64
}

// fileOf returns the open state of k, or nil.
func (m *Core) fileOf(k Key) *openFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.files[k]
}

// openAt returns the open file at p, or nil.
func (m *Core) openAt(p string) *openFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, of := range m.files {
		if k.Rel() == p {
			return of
		}
	}
	return nil
}

// acquire returns k's open state, made if needed, with one more reference.
func (m *Core) acquire(k Key) *openFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	of := m.files[k]
	if of == nil {
		of = &openFile{key: k}
		m.files[k] = of
	}
	of.refs++
	return of
}

func isWrite(flags int) bool { return flags&(os.O_WRONLY|os.O_RDWR) != 0 }

// Open opens the file k for actor with the open(2) flags (O_WRONLY, O_RDWR, O_TRUNC,
// O_APPEND); the caller releases the handle.
func (m *Core) Open(ctx context.Context, k Key, actor string, flags int) (*Handle, error) {
	p := k.Rel()
	w := isWrite(flags) || flags&os.O_TRUNC != 0
	if w && m.ReadOnly() {
		return nil, syscall.EROFS
	}
	if of := m.fileOf(k); of == nil || !of.created {
		fi, err := m.stat(ctx, p)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() && w {
			return nil, syscall.EISDIR
		}
	}
	of := m.acquire(k)
	h := &Handle{m: m, of: of, write: w, append: flags&os.O_APPEND != 0}
	if w {
		of.mu.Lock()
		err := m.buffer(ctx, of, flags&os.O_TRUNC != 0)
		of.actor = actor
		if err == nil {
			of.writers++
		}
		of.mu.Unlock()
		if err != nil {
			m.release(of)
			return nil, err
		}
		m.writers.Add(1)
	}
	return h, nil
}

// buffer gives of a spill file holding the file's content (none when truncating).
func (m *Core) buffer(ctx context.Context, of *openFile, truncate bool) error {
	if of.spill != nil {
		if truncate {
			of.size, of.dirty = 0, true
			return of.spill.Truncate(0)
		}
		return nil
	}
	f, err := m.newSpill()
	if err != nil {
		return err
	}
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

// Create creates the file at p for actor and opens it for writing; key makes the Key of
// the new file (a face's node). flags are open(2)'s (O_EXCL, O_APPEND); perm is the mode
// after the caller's umask (0: the store's default).
func (m *Core) Create(ctx context.Context, p, actor string, flags int, perm uint32, key func() Key) (*Handle, error) {
	if m.ReadOnly() {
		return nil, syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) {
		return nil, syscall.EACCES
	}
	if _, err := m.stat(ctx, p); err == nil {
		if flags&os.O_EXCL != 0 {
			return nil, syscall.EEXIST
		}
	} else if of := m.openAt(p); of != nil && flags&os.O_EXCL != 0 {
		return nil, syscall.EEXIST
	}
	of := m.acquire(key())
	of.mu.Lock()
	exists := false
	if _, err := m.stat(ctx, p); err == nil {
		exists = true
	}
	of.created = !exists
	err := m.buffer(ctx, of, true)
	of.actor = actor
	of.mtime = time.Now()
	of.wrote = true // a new file exists once its creator closes it, even empty
	if err == nil {
		of.writers++
	}
	of.mu.Unlock()
	if err != nil {
		m.release(of)
		return nil, err
	}
	m.writers.Add(1)
	m.mu.Lock()
	if !exists {
		m.created[p] = true
	}
	if perm != 0 {
		m.meta[p] = meta{perm: perm}
	}
	m.mu.Unlock()
	return &Handle{m: m, of: of, write: true, append: flags&os.O_APPEND != 0}, nil
}

// Buffered reports whether the handle reads from its write buffer.
func (h *Handle) Buffered() bool {
	h.of.mu.Lock()
	defer h.of.mu.Unlock()
	return h.of.spill != nil
}

// Read reads into dest at off. When the file is a host file the store opened and has no
// write buffer, Read reads nothing and returns its descriptor instead (fd >= 0), for a
// face that can hand the descriptor on (FUSE splices it); otherwise fd is -1.
func (h *Handle) Read(ctx context.Context, dest []byte, off int64, wantFd bool) (n int, fd int, err error) {
	of := h.of
	of.mu.Lock()
	if of.spill != nil {
		defer of.mu.Unlock()
		n, err := of.spill.ReadAt(dest, off)
		if err != nil && err != io.EOF {
			return 0, -1, syscall.EIO
		}
		return n, -1, nil
	}
	of.mu.Unlock()
	return h.readStore(ctx, dest, off, wantFd)
}

// readStore reads from the workspace's store: at off directly when its file can, else by
// reading on (and opening again to go back).
func (h *Handle) readStore(ctx context.Context, dest []byte, off int64, wantFd bool) (int, int, error) {
	h.of.mu.Lock()
	defer h.of.mu.Unlock()
	n, fd, err := h.readStoreAt(ctx, dest, off, wantFd)
	if err != nil && h.rd != nil {
		// The file the handle holds may have gone from under it: the session layer's copy
		// of a file the applier has just carried to the workspace (the store fails reads of
		// a file whose content was replaced rather than serve a mix). The same content is
		// there to open again.
		h.rd.Close()
		h.rd = nil
		n, fd, err = h.readStoreAt(ctx, dest, off, wantFd)
	}
	return n, fd, err
}

// readStoreAt is readStore with the file's lock held.
func (h *Handle) readStoreAt(ctx context.Context, dest []byte, off int64, wantFd bool) (int, int, error) {
	if h.rd == nil || off < h.rdPos {
		if h.rd != nil {
			h.rd.Close()
		}
		name, err := h.m.ws.Paths().StoreName(h.of.path())
		if err != nil {
			return 0, -1, err
		}
		f, err := h.m.ws.Store().Open(ctx, name)
		if err != nil {
			return 0, -1, err
		}
		h.rd, h.rdPos = f, 0
	}
	if fd, ok := h.rd.(interface{ Fd() uintptr }); ok && wantFd {
		return 0, int(fd.Fd()), nil
	}
	if ra, ok := h.rd.(io.ReaderAt); ok {
		n, err := ra.ReadAt(dest, off)
		if err != nil && err != io.EOF {
			return 0, -1, err
		}
		return n, -1, nil
	}
	if off > h.rdPos {
		if _, err := io.CopyN(io.Discard, h.rd, off-h.rdPos); err != nil {
			h.rdPos = off
			return 0, -1, nil
		}
		h.rdPos = off
	}
	n, err := io.ReadFull(h.rd, dest)
	h.rdPos += int64(n)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return 0, -1, err
	}
	return n, -1, nil
}

// Write writes data at off into the handle's buffer (at its end under O_APPEND).
func (h *Handle) Write(data []byte, off int64) (int, error) {
	if !h.write {
		return 0, syscall.EBADF
	}
	of := h.of
	of.mu.Lock()
	defer of.mu.Unlock()
	if of.failed != nil {
		return 0, of.failed
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
		return n, syscall.EIO
	}
	of.size = max(of.size, end)
	of.dirty, of.wrote = true, true
	of.mtime = time.Now() // the actor is the opener's: finding the writer for each write would cost
	return n, nil
}

// Flush is close(2) of one descriptor: what was written goes to the workspace now, so that
// a refusal (quota, mode) is close's error. A truncation with nothing written yet waits
// for the last close: a shell's "> file" closes a copy of the descriptor before the
// command writes, and a write refused then must leave the file as it was.
func (h *Handle) Flush(ctx context.Context) error {
	if !h.write {
		return nil
	}
	h.of.mu.Lock()
	wrote := h.of.wrote
	h.of.mu.Unlock()
	if !wrote {
		return nil
	}
	return h.m.commit(ctx, h.of)
}

// Sync is fsync: the buffer goes to the workspace, and on a mount that applies as it goes
// the file's change is applied now.
func (h *Handle) Sync(ctx context.Context) error {
	if !h.write {
		return nil
	}
	if err := h.m.commit(ctx, h.of); err != nil {
		return err
	}
	return h.m.synced(ctx, h.of.path())
}

// Release is the last close of the handle: a buffer not committed yet (a truncation
// alone, or after a failed flush) is committed quietly.
func (h *Handle) Release(ctx context.Context) {
	if h.rd != nil {
		h.rd.Close()
	}
	if h.write {
		h.of.mu.Lock()
		h.of.writers--
		last := h.of.writers == 0
		h.of.mu.Unlock()
		if last {
			h.m.commit(ctx, h.of)
		}
		h.m.writers.Add(-1)
	}
	h.m.release(h.of)
}

// release drops a reference to of, and its buffer with the last.
func (m *Core) release(of *openFile) {
	m.mu.Lock()
	of.refs--
	last := of.refs <= 0
	if last {
		delete(m.files, of.key)
	}
	m.mu.Unlock()
	if last {
		of.mu.Lock()
		if of.spill != nil {
			m.dropSpill(of.spill)
			of.spill = nil
		}
		of.mu.Unlock()
	}
	m.changed()
}

// commit writes of's buffer to the workspace when it holds something new.
func (m *Core) commit(ctx context.Context, of *openFile) error {
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
	m.keepCreated(ctx, p, of.actor) // link.go
	return nil
}

// Truncate sets the size of k's file for actor: in its buffer when open for writing,
// else through a buffer committed at once.
func (m *Core) Truncate(ctx context.Context, k Key, actor string, size int64) error {
	if m.ReadOnly() {
		return syscall.EROFS
	}
	of := m.acquire(k)
	defer m.release(of)
	of.mu.Lock()
	err := m.buffer(ctx, of, size == 0)
	if err == nil && of.size != size {
		err = of.spill.Truncate(size)
		of.size, of.dirty, of.mtime = size, true, time.Now()
		of.actor = actor
	}
	of.mu.Unlock()
	if err != nil {
		return err
	}
	of.mu.Lock()
	writing := of.writers > 0
	of.mu.Unlock()
	if writing {
		return nil // committed when the writer closes (the kernel may not say which handle)
	}
	return m.commit(ctx, of)
}
