package osdir

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel has said it has no openat2 (before Linux 5.6).
var noOpenat2 atomic.Bool

// longName is the length from which a name is opened one element at a time: the kernel
// refuses a path of PATH_MAX (4,096) bytes or more, and a walk reaches deeper than that.
const longName = 2048

// openBeneath opens name below the directory dirfd with openat2, which makes the kernel
// refuse any path that would leave the directory or pass through a symbolic link, in one
// system call. Without openat2 (before Linux 5.6), and for a long name, it opens one
// element at a time with O_NOFOLLOW ([openElems]): the same guarantee, one call per
// element. link reports that the open failed on a symbolic link.
//
// openat2 may also be refused by a seccomp filter, which answers ENOSYS like an old
// kernel, or EPERM.
//
// A single name (no slash, not "..") is opened with openat and O_NOFOLLOW ([openElems]):
// it cannot leave the directory, the flag refuses it as a link, and the resolve flags buy
// nothing for it but their cost; a grep opens each file so (issue 40).
func openBeneath(dirfd int, name string, flags int) (fd int, link bool, err error) {
	if !noOpenat2.Load() && len(name) < longName && (strings.Contains(name, "/") || name == "..") {
		how := unix.OpenHow{
			Flags:   uint64(flags) | unix.O_NOFOLLOW,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		}
		for {
			fd, err := unix.Openat2(dirfd, name, &how)
			switch err {
			case unix.EINTR, unix.EAGAIN:
				continue
			case unix.ENOSYS:
				noOpenat2.Store(true)
			case unix.ENOTDIR:
				// A final link opened with O_DIRECTORY, or an element that is no
				// directory: the open one element at a time tells which.
			case unix.EPERM:
				// What an older seccomp filter (Docker's before 20.10) answers for a
				// system call it does not know; a real EPERM comes again below.
			case unix.ELOOP, unix.EXDEV:
				return -1, true, err
			default:
				return fd, false, err
			}
			break
		}
	}
	return openElems(dirfd, name, flags)
}

// listScratch is what list reads a directory with: the kernel's records, then the
// entries' names and where each is, before one string holds the names.
type listScratch struct {
	buf   [32 << 10]byte
	recs  []direntRec
	names []byte
}

// direntRec is an entry read: its name at names[off:off+n], and its type if known.
type direntRec struct {
	off, n int
	typ    fs.FileMode
	known  bool
}

var listScratches = sync.Pool{New: func() any { return new(listScratch) }}

// list lists d, sorted by name if sorted, from its start (rewinding it first if again).
// It reads the kernel's records with getdents64
// into a pooled buffer and keeps, per directory, one block of entries and one string of
// all their names: os.File.ReadDir costs an fcntl per directory and two allocations per
// entry, a fifth of a find's CPU on the Linux tree (issue 18).
func (d *fdDir) list(sorted, again bool) ([]fs.DirEntry, error) {
	sc := listScratches.Get().(*listScratch)
	defer listScratches.Put(sc)
	buf, recs, names := &sc.buf, sc.recs[:0], sc.names[:0]
	defer func() { sc.recs, sc.names = recs[:0], names[:0] }()
	if again {
		if _, err := unix.Seek(d.fd, 0, 0); err != nil {
			return nil, err
		}
	}
	for {
		n, err := unix.Getdents(d.fd, buf[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) >= 19; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ := b[18]
			name := b[19:reclen]
			if i := slices.Index(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
				continue
			}
			m, known := direntType(typ)
			recs = append(recs, direntRec{off: len(names), n: len(name), typ: m, known: known})
			names = append(names, name...)
		}
	}
	all := string(names)
	ents := make([]fdEntry, len(recs))
	for i, r := range recs {
		ents[i] = fdEntry{name: all[r.off : r.off+r.n], typ: r.typ, in: d}
		if !r.known {
			// The file system gave no type (DT_UNKNOWN): ask for it, without following.
			var st unix.Stat_t
			if err := lstatAt(d.fd, ents[i].name, &st); err == nil {
				ents[i].typ = statType(uint32(st.Mode))
			} else {
				ents[i].typ = fs.ModeIrregular
			}
		}
	}
	if sorted {
		slices.SortFunc(ents, func(a, b fdEntry) int { return strings.Compare(a.name, b.name) })
	}
	des := make([]fs.DirEntry, len(ents))
	for i := range ents {
		des[i] = &ents[i]
	}
	return des, nil
}

// direntType maps a record's d_type to a file mode type; false when the type is unknown.
func direntType(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}
