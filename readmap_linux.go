package llmfs

import (
	"io"
	"io/fs"
	"os"
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
// mapped, a window at a time.
type mappedFile struct {
	fd   int
	size int64
	pos  int64  // offset of the next byte to yield
	win  []byte // the mapped window, nil before the first
	off  int64  // offset of win[0]
}

// mapRest returns the bytes of f from offset from on, mapped (the first window already),
// or nil when f is not a regular host file of at least readMapMin bytes or cannot be
// mapped; the caller then reads f as before. f's own offset is left alone.
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
	m := &mappedFile{fd: -1, size: fi.Size(), pos: from}
	if rc.Control(func(fd uintptr) { m.fd = int(fd) }) != nil || m.fd < 0 {
		return nil
	}
	if m.mapWindow() != nil {
		// A file system that cannot map (some FUSE ones): read(2) it is.
		return nil
	}
	return m
}

// mapWindow maps the window with the next byte to yield, in place of the current one.
func (m *mappedFile) mapWindow() error {
	m.unmap()
	off := m.pos &^ int64(os.Getpagesize()-1)
	n := min(readMapWindow, m.size-off)
	// MAP_POPULATE maps the whole window in one call rather than a fault at a time
	// (for a cached file about a fifth less CPU than faulting it in).
	b, err := unix.Mmap(m.fd, off, int(n), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return &fs.PathError{Op: "mmap", Err: err}
	}
	m.win, m.off = b, off
	if mapHook != nil {
		mapHook(off)
	}
	return nil
}

// next returns the next at most max bytes, in the current window, and io.EOF with the last
// of them (or alone at the end). The bytes are valid until the following call.
func (m *mappedFile) next(max int) ([]byte, error) {
	if m.pos >= m.size {
		return nil, io.EOF
	}
	if m.pos >= m.off+int64(len(m.win)) {
		if err := m.mapWindow(); err != nil {
			return nil, err
		}
	}
	i := m.pos - m.off
	c := m.win[i:min(i+int64(max), int64(len(m.win)))]
	m.pos += int64(len(c))
	if m.pos == m.size {
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

// close unmaps the current window.
func (m *mappedFile) close() { m.unmap() }

// inWindow reports whether addr is in the current window: a fault there is the file
// shrinking under the mapping, not a bug.
func (m *mappedFile) inWindow(addr uintptr) bool {
	if len(m.win) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m.win)))
	return addr >= base && addr-base < uintptr(len(m.win))
}
