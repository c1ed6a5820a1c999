package llmfs

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A model-facing read must pass over the whole file to report total_lines. Through read(2)
// that is mostly the kernel copying the page cache into the read buffer (three quarters of
// a cold 1 GiB read's CPU); through a read-only shared mapping the scan counts the page
// cache where it is, and pays only to map the pages. The file is mapped a window at a
// time, so the process's resident size grows by one window, not by the file.
//
// A mapping has a hazard read(2) has not: should another process truncate the file while
// it is mapped, touching a page past the new end raises SIGBUS, which would kill the
// process. The scan therefore runs with [debug.SetPanicOnFault] and turns a fault inside
// the current window into a coded error ([mappedFile.recoverFault]).

// readMapMin is the size from which the rest of a file is mapped rather than read, and
// readMapWindow how much of it is mapped at a time (a multiple of the page size).
// Variables so that tests can map small files in small windows.
var (
	readMapMin    int64 = 1 << 20
	readMapWindow int64 = 8 << 20
	// mapHook, when not nil, is called with the offset of each window just mapped: tests
	// truncate the file there.
	mapHook func(off int64)
)

// mappedFile yields the bytes of a file from a start offset to the size it had when
// mapped (or to end, once the rest is split off), a window at a time.
type mappedFile struct {
	fd   int
	size int64
	end  int64  // where yielding stops: size, or where rest starts
	pos  int64  // offset of the next byte to yield
	win  []byte // the mapped window, nil before the first
	off  int64  // offset of win[0]
	rest *restCount
}

// mapRest returns the bytes of f from offset from on, mapped, or nil when f is not a
// regular host file of at least readMapMin bytes or cannot be mapped; the caller then
// reads f as before. f's own offset is left alone.
func mapRest(f fs.File, from int64) *mappedFile {
	of, ok := f.(*os.File)
	if !ok {
		return nil
	}
	fi, err := of.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < readMapMin || fi.Size() <= from {
		return nil
	}
	// The descriptor outlives the mapping: the caller closes f after the scan, which
	// unmaps first. (Fd would switch the descriptor to blocking mode; SyscallConn does
	// not, and the number is all a mapping needs.)
	rc, err := of.SyscallConn()
	if err != nil {
		return nil
	}
	m := &mappedFile{fd: -1, size: fi.Size(), end: fi.Size(), pos: from}
	if rc.Control(func(fd uintptr) { m.fd = int(fd) }) != nil || m.fd < 0 {
		return nil
	}
	return m
}

// next returns the next at most max bytes, in the current window, and io.EOF with the last
// of them (or alone at the end). The bytes are valid until the following call.
func (m *mappedFile) next(max int) ([]byte, error) {
	if m.pos >= m.end {
		return nil, io.EOF
	}
	if m.win == nil || m.pos >= m.off+int64(len(m.win)) {
		m.unmap()
		off := m.pos &^ int64(os.Getpagesize()-1)
		n := min(readMapWindow, m.end-off)
		// MAP_POPULATE maps the whole window in one call rather than a fault at a time
		// (for a cached file about a fifth less CPU than faulting it in).
		b, err := unix.Mmap(m.fd, off, int(n), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_POPULATE)
		if err != nil {
			return nil, &fs.PathError{Op: "mmap", Err: err}
		}
		m.win, m.off = b, off
		if mapHook != nil {
			mapHook(off)
		}
	}
	i := m.pos - m.off
	c := m.win[i:min(i+int64(max), int64(len(m.win)), m.end-m.off)]
	m.pos += int64(len(c))
	if m.pos == m.end {
		return c, io.EOF
	}
	return c, nil
}

func (m *mappedFile) unmap() {
	if m.win != nil {
		unix.Munmap(m.win)
		m.win = nil
	}
}

// shrunk reports whether the file is now shorter than when it was mapped. A truncation
// that kept the page the scan was in does not fault (the bytes past the new end read as
// zeros), so the scan asks once it is done.
func (m *mappedFile) shrunk() bool {
	var st unix.Stat_t
	return unix.Fstat(m.fd, &st) == nil && st.Size < m.size
}

// close waits for the count of the rest, if one was started (it maps through the same
// descriptor, which the caller closes next), and unmaps the current window.
func (m *mappedFile) close() {
	if m.rest != nil {
		<-m.rest.done
	}
	m.unmap()
}

// Once a read has its lines, what is left is counting: the newlines for total_lines and,
// when an index is built, the offsets of its lines. On a machine with a second CPU the
// second half of what is left is counted by another goroutine meanwhile, in blocks, so that
// the index builder can later take whole blocks by their counts and read again only the
// few blocks where an indexed line starts. That costs about the same CPU and saves wall
// time.

// splitMin is the least that must be left to count for it to be split, and restBlock the
// size of the blocks the second half is counted in (a multiple of the page size, which
// divides the offset the second half starts at).
var (
	splitMin  int64 = 32 << 20
	restBlock       = 16 << 10
)

// restCount is the count of the second half, [from, end) of the file.
type restCount struct {
	done   chan struct{}
	from   int64
	end    int64
	lines  int     // newlines in it
	blocks []int32 // newlines in each restBlock bytes of it
	last   byte    // its last byte
	err    error
}

// split starts counting the second half of what is left of m in another goroutine, if that
// is worth it, and makes m stop where that half starts.
func (m *mappedFile) split(ctx context.Context) {
	left := m.end - m.pos
	if m.rest != nil || left < splitMin || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	from := (m.pos + left/2) &^ int64(restBlock-1)
	r := &restCount{done: make(chan struct{}), from: from, end: m.end}
	r.blocks = make([]int32, 0, (r.end-from)/int64(restBlock)+1)
	m.rest, m.end = r, from
	go r.count(ctx, &mappedFile{fd: m.fd, size: m.size, end: r.end, pos: from})
}

// count counts r's bytes, read through h, catching faults as scanMapped does.
func (r *restCount) count(ctx context.Context, h *mappedFile) {
	defer close(r.done)
	defer h.unmap()
	defer func() {
		if p := recover(); p != nil {
			if f, ok := p.(interface{ Addr() uintptr }); ok && h.inWindow(f.Addr()) {
				r.err = errShrunk()
				return
			}
			panic(p)
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for {
		if err := ctx.Err(); err != nil {
			r.err = err
			return
		}
		c, err := h.next(int(readMapWindow))
		for len(c) > 0 {
			k := bytes.Count(c[:min(len(c), restBlock)], nl)
			r.blocks = append(r.blocks, int32(k))
			r.lines += k
			r.last = c[min(len(c), restBlock)-1]
			c = c[min(len(c), restBlock):]
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			r.err = err
			return
		}
	}
}

// join waits for the count of the rest and adds it: the newlines, the bytes and the last
// of them, and, to the index builder b if not nil, the rest's blocks, reading again those
// where an indexed line starts.
func (m *mappedFile) join(b *indexBuilder, newlines *int, size *int64, last *byte) error {
	r := m.rest
	if r == nil {
		return nil
	}
	<-r.done
	if r.err != nil {
		return r.err
	}
	*newlines += r.lines
	*size += r.end - r.from
	if r.end > r.from {
		*last = r.last
	}
	if b == nil {
		return nil
	}
	buf := make([]byte, restBlock)
	off := r.from
	for _, c := range r.blocks {
		n := min(int64(restBlock), r.end-off)
		if !b.feedCount(n, int(c)) {
			k, err := unix.Pread(m.fd, buf[:n], off)
			if err != nil || int64(k) != n || b.feed(buf[:n]) != int(c) {
				// Changed since it was counted: the index would be wrong.
				b.broken = true
				return nil
			}
		}
		off += n
	}
	return nil
}

// inWindow reports whether addr is in the current window: a fault there is the file
// shrinking under the mapping, not a bug.
func (m *mappedFile) inWindow(addr uintptr) bool {
	if len(m.win) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m.win)))
	return addr >= base && addr-base < uintptr(len(m.win))
}
