//go:build unix

package osdir

import (
	"io/fs"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/llmfs/llmfs/store"
)

// The journal snapshots a file before each change to it (see snapshot.go). On Unix a small
// file's snapshot takes raw system calls on a descriptor of the root kept for the purpose:
// fstatat, openat, fstat, read and close. Through os.Root and os.File the same snapshot
// also registered the file with the runtime's poller (an epoll_ctl the kernel refuses for a
// regular file) and allocated the File, its finalizer and two FileInfos: about a third of
// what the journal added to a small write's CPU was its snapshot (BENCHMARKS.md, Journal).

// snapRoot is the root descriptor snapshots open relative to, opened on first use and
// closed with the store.
type snapRoot struct {
	once    sync.Once
	d       *fdDir // nil when it could not be opened: snapshots take the general path
	cleanup runtime.Cleanup
}

func (s *Store) snapDir() *fdDir {
	s.snap.once.Do(func() {
		if d, err := s.openRootDir(); err == nil {
			s.snap.d = d
			// A store dropped without Close gives the descriptor back when collected,
			// as its os.Root does.
			s.snap.cleanup = runtime.AddCleanup(s, func(fd int) { unix.Close(fd) }, d.fd)
		}
	})
	return s.snap.d
}

// closeSnap releases the snapshots' root descriptor, if it was opened.
func (s *Store) closeSnap() {
	s.snap.once.Do(func() {}) // no snapshot opens it after this
	if s.snap.d != nil {
		s.snap.cleanup.Stop()
		s.snap.d.release()
	}
}

// quickSnapshot is [Store.Snapshot] of a name that holds nothing, a directory, a symbolic
// link or a regular file of at most max bytes, none of the directories on the way a link.
// ok is false for anything else (a larger file, a link on the way, a special file, an
// error other than the name's absence): the caller then takes the general path, which
// says what is wrong or resolves the link.
func (s *Store) quickSnapshot(name string, max int64) (v store.Version, data []byte, ok bool, err error) {
	if !fs.ValidPath(name) {
		return store.Version{}, nil, false, nil
	}
	d := s.snapDir()
	if d == nil || !d.acquire() {
		return store.Version{}, nil, false, nil
	}
	defer d.release()
	dirfd, base := d.fd, name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		fd, link, err := openBeneath(d.fd, name[:i], dirFlags)
		switch {
		case err == unix.ENOENT || err == unix.ENOTDIR && !link:
			return store.Version{Kind: store.Absent}, nil, true, nil
		case err != nil:
			return store.Version{}, nil, false, nil
		}
		defer unix.Close(fd)
		dirfd, base = fd, name[i+1:]
	}
	var st unix.Stat_t
	switch err := lstatAt(dirfd, base, &st); {
	case err == unix.ENOENT || err == unix.ENOTDIR:
		return store.Version{Kind: store.Absent}, nil, true, nil
	case err != nil:
		return store.Version{}, nil, false, nil
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		// The link's target is its content, as the general path reads it.
		target, err := readlinkAt(dirfd, base, st.Size)
		if err != nil {
			return store.Version{}, nil, false, nil
		}
		v, data := store.LinkVersion(target)
		return v, data, true, nil
	case unix.S_IFDIR:
		return store.Version{Kind: store.Dir}, nil, true, nil
	case unix.S_IFREG:
	default:
		return store.Version{}, nil, false, nil
	}
	if st.Size > max {
		return store.Version{}, nil, false, nil
	}
	if v, data, ok := s.knownAt(name, &st); ok {
		return v, data, true, nil // as the journal's last write left it (known.go)
	}
	// O_NONBLOCK: a FIFO swapped in after the lstat must not block the open.
	fd, err := openat(dirfd, base, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK)
	if err != nil {
		return store.Version{}, nil, false, nil
	}
	defer unix.Close(fd)
	var now unix.Stat_t
	if err := fstat(fd, &now); err != nil {
		return store.Version{}, nil, false, nil
	}
	if now.Dev != st.Dev || now.Ino != st.Ino || now.Mode&unix.S_IFMT != unix.S_IFREG {
		// Replaced since the lstat: the caller looks again.
		return store.Version{}, nil, true, &fs.PathError{Op: "snapshot", Path: name, Err: store.ErrChanged}
	}
	data, err = readShort(fd, now.Size)
	if err != nil {
		return store.Version{}, nil, false, nil
	}
	if int64(len(data)) > max {
		return store.Version{Kind: store.File, Hash: store.Hash(data), Size: int64(len(data))}, nil, true, nil
	}
	return store.FileVersion(data), data, true, nil
}

// readShort reads a regular file of about size bytes to its end: one byte more is asked
// for, so that a file that grew since its stat reads on, and a short read is its end (as
// the general path takes it).
func readShort(fd int, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		n, err := unix.Read(fd, data[len(data):cap(data)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		data = data[:len(data)+n]
		if n == 0 || len(data) < cap(data) {
			return data, nil
		}
		data = append(data, 0)[:len(data)]
	}
}

// readlinkAt reads the target of the link base in dirfd, of about size bytes.
func readlinkAt(dirfd int, base string, size int64) (string, error) {
	buf := make([]byte, max(size, 64)+1)
	for {
		n, err := unix.Readlinkat(dirfd, base, buf)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return "", err
		case n < len(buf):
			return string(buf[:n]), nil
		}
		buf = make([]byte, 2*len(buf)) // it grew since the lstat
	}
}

// fstat describes the open file fd, retrying on EINTR.
func fstat(fd int, st *unix.Stat_t) error {
	for {
		err := unix.Fstat(fd, st)
		if err != unix.EINTR {
			return err
		}
	}
}
