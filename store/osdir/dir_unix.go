//go:build unix

package osdir

import (
	"io"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmfs/llmfs/store"
	"golang.org/x/sys/unix"
)

// fdDir is a [store.DirHandle] held by descriptor. Every name below it is opened relative
// to the descriptor, by [openBeneath], which follows no symbolic link: one system call per
// open, with plain system calls rather than os.File's (a stat and poller bookkeeping per
// file, which showed on trees of many small files).
type fdDir struct {
	s    *Store
	name string // its store name when opened, for errors and for entries described once closed
	fd   int
	// refs is 1 while the directory is open, plus the entries' Info calls under way: the
	// descriptor is closed when it falls to zero, never under an fstatat.
	refs   atomic.Int32
	closed atomic.Bool
	listMu sync.Mutex // one listing at a time reads the descriptor's offset
	listed bool       // a listing read it: the next rewinds first; guarded by listMu
	// shortEOF says that the directory is on a local disk file system and no mount
	// point lies between it and the root: a short read of a file below it is the file's
	// end (see shortread_linux.go).
	shortEOF bool
}

const dirFlags = unix.O_RDONLY | unix.O_CLOEXEC | unix.O_DIRECTORY

func newFDDir(s *Store, name string, fd int) *fdDir {
	d := &fdDir{s: s, name: name, fd: fd}
	d.refs.Store(1)
	return d
}

// openRootDir opens the store's root: the very directory its os.Root holds (a duplicate
// of that descriptor, so that the directory renamed or swapped since the store was
// opened changes nothing), or in relaxed mode the directory by its path.
func (s *Store) openRootDir() (*fdDir, error) {
	if s.root == nil {
		fd, err := unix.Open(s.dir, dirFlags, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: s.dir, Err: err}
		}
		d := newFDDir(s, ".", fd)
		d.shortEOF = localFS(fd)
		return d, nil
	}
	f, err := s.root.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(h uintptr) {
		fd, derr = unix.FcntlInt(h, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, &fs.PathError{Op: "dup", Path: ".", Err: derr}
	}
	d := newFDDir(s, ".", fd)
	d.shortEOF = localFS(fd)
	return d, nil
}

// acquire holds the descriptor for one call; false once the directory is closed.
func (d *fdDir) acquire() bool {
	for {
		n := d.refs.Load()
		if n <= 0 {
			return false
		}
		if d.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (d *fdDir) release() {
	if d.refs.Add(-1) == 0 {
		unix.Close(d.fd)
	}
}

func (d *fdDir) Close() error {
	if !d.closed.Swap(true) {
		d.release()
	}
	return nil
}

// errClosed is what a closed fdDir answers.
func (d *fdDir) errClosed(op string) error {
	return &fs.PathError{Op: op, Path: d.name, Err: fs.ErrClosed}
}

func (d *fdDir) OpenDir(name string) (store.DirHandle, error) {
	if !d.acquire() {
		return nil, d.errClosed("opendir")
	}
	defer d.release()
	if d.shortEOF {
		// A subdirectory on the same file system keeps the short-read end; a mount
		// point, or anything else openSameFS does not open, is opened as below, without.
		if fd, ok := openSameFS(d.fd, name); ok {
			sub := newFDDir(d.s, joinName(d.name, name), fd)
			sub.shortEOF = true
			return sub, nil
		}
	}
	fd, link, err := openBeneath(d.fd, name, dirFlags)
	if err != nil {
		return nil, dirErr("opendir", d.name, name, err, link)
	}
	return newFDDir(d.s, joinName(d.name, name), fd), nil
}

// Open opens a regular file; O_NONBLOCK, so that a FIFO swapped in cannot block it.
func (d *fdDir) Open(name string) (io.ReadCloser, error) {
	if !d.acquire() {
		return nil, d.errClosed("open")
	}
	defer d.release()
	fd, link, err := openBeneath(d.fd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK)
	if err != nil {
		return nil, dirErr("open", d.name, name, err, link)
	}
	return &rawFile{fd: fd, shortEOF: d.shortEOF}, nil
}

// ModTime stats name relative to the descriptor of its directory, opened beneath d:
// fstatat alone would follow links on the way.
func (d *fdDir) ModTime(name string) (time.Time, error) {
	var st unix.Stat_t
	if err := d.lstat("stat", name, &st); err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)), nil
}

// Lstat describes name below d without following a symbolic link on the way or at the
// end: one fstatat for a name in d itself, where the store's Stat by name opens and
// closes its directory too (the overlay's pending scan states each pending file's base
// this way).
func (d *fdDir) Lstat(name string) (fs.FileInfo, error) {
	fi := &statInfo{name: name[strings.LastIndexByte(name, '/')+1:]}
	if err := d.lstat("lstat", name, &fi.st); err != nil {
		return nil, err
	}
	return fi, nil
}

// lstat stats name relative to the descriptor of its directory, opened beneath d.
func (d *fdDir) lstat(op, name string, st *unix.Stat_t) error {
	if !d.acquire() {
		return d.errClosed(op)
	}
	defer d.release()
	dirfd, base := d.fd, name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		fd, link, err := openBeneath(d.fd, name[:i], dirFlags)
		if err != nil {
			return dirErr(op, d.name, name, err, link)
		}
		defer unix.Close(fd)
		dirfd, base = fd, name[i+1:]
	}
	if err := lstatAt(dirfd, base, st); err != nil {
		return dirErr(op, d.name, name, err, false)
	}
	return nil
}

func (d *fdDir) ReadDir(anyOrder bool) ([]fs.DirEntry, error) {
	if !d.acquire() {
		return nil, d.errClosed("readdir")
	}
	defer d.release()
	d.listMu.Lock()
	des, err := d.list(!anyOrder, d.listed)
	d.listed = true
	d.listMu.Unlock()
	if err != nil {
		return nil, dirErr("readdir", d.name, ".", err, false)
	}
	return hideOwn(des), nil
}

// lstatAt describes name in the directory dirfd without following it, retrying on EINTR.
func lstatAt(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}

// openat opens name below dirfd without following a final symbolic link, retrying on
// EINTR.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := openName(dirfd, name, flags|unix.O_NOFOLLOW)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openElems opens name below dirfd one element at a time, each relative to the one before
// with O_NOFOLLOW (and O_DIRECTORY but for the last, unless flags has it): no symbolic
// link is followed anywhere on the way, and a path of any length is opened (the kernel
// refuses one of PATH_MAX bytes or more). link reports that the open failed on a link.
func openElems(dirfd int, name string, flags int) (fd int, link bool, err error) {
	at := dirfd
	for {
		i := strings.IndexByte(name, '/')
		elem, fl := name, flags
		if i >= 0 {
			elem, fl = name[:i], dirFlags
		}
		fd, err = openat(at, elem, fl)
		if err != nil {
			link = isLink(at, elem, err)
		}
		if at != dirfd {
			unix.Close(at)
		}
		if err != nil || i < 0 {
			return fd, link, err
		}
		at, name = fd, name[i+1:]
	}
}

// isLink reports whether err, from opening elem in dirfd with O_NOFOLLOW, says that elem
// is a symbolic link: ELOOP (EMLINK on FreeBSD), or ENOTDIR with O_DIRECTORY where elem
// turns out to be one.
func isLink(dirfd int, elem string, err error) bool {
	switch err {
	case unix.ELOOP, unix.EMLINK:
		return true
	case unix.ENOTDIR:
		var st unix.Stat_t
		return lstatAt(dirfd, elem, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
	}
	return false
}

// fdEntry is a directory entry an fdDir listed: its name and type, from the directory.
type fdEntry struct {
	name string
	typ  fs.FileMode
	in   *fdDir
}

func (e *fdEntry) Name() string      { return e.name }
func (e *fdEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *fdEntry) Type() fs.FileMode { return e.typ }
func (e *fdEntry) String() string    { return fs.FormatDirEntry(e) }

// Info describes the entry relative to its directory's descriptor while the directory is
// open, and through the store by name once it is closed.
func (e *fdEntry) Info() (fs.FileInfo, error) {
	d := e.in
	if !d.acquire() {
		name := joinName(d.name, e.name)
		fi, err := d.s.fs().Lstat(name)
		if err != nil {
			return nil, fixErr("lstat", name, err)
		}
		return fi, nil
	}
	defer d.release()
	fi := &statInfo{name: e.name}
	if err := lstatAt(d.fd, e.name, &fi.st); err != nil {
		return nil, dirErr("lstat", d.name, e.name, err, false)
	}
	return fi, nil
}

// statInfo is an [fs.FileInfo] from a stat; Sys returns the *unix.Stat_t.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (fi *statInfo) Name() string { return fi.name }
func (fi *statInfo) Size() int64  { return fi.st.Size }
func (fi *statInfo) IsDir() bool  { return fi.Mode().IsDir() }
func (fi *statInfo) Sys() any     { return &fi.st }
func (fi *statInfo) ModTime() time.Time {
	return time.Unix(int64(fi.st.Mtim.Sec), int64(fi.st.Mtim.Nsec))
}
func (fi *statInfo) Mode() fs.FileMode {
	m := uint32(fi.st.Mode)
	mode := statType(m) | fs.FileMode(m&0o777)
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// statType maps a stat mode's type bits to a file mode type.
func statType(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

// rawFile is a file descriptor read with plain system calls. With shortEOF (its
// directory's file system says so, see fdDir.shortEOF) a read that returns fewer bytes
// than asked returns io.EOF with them, sparing the read that would only return 0.
type rawFile struct {
	fd       int
	shortEOF bool
}

func (f *rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		if n < len(p) && f.shortEOF {
			return n, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error { return syscall.Close(f.fd) }
