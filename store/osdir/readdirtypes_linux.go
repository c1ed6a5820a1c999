package osdir

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// readDirTypes reads the entries of the directory f (the store name dir) with getdents64,
// taking each entry's type from d_type. An entry of unknown type (a file system that does
// not record it) is lstat'ed.
func (s *Store) readDirTypes(f *os.File, dir string) ([]fs.DirEntry, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	// The names go into one string, which the entries slice: one allocation for the
	// names of a directory, not one each (so one entry kept keeps them all, and the
	// entries' array too: listings are used and dropped). ends[i] is where entries[i]'s
	// name ends.
	var (
		entries []typedEntry
		names   []byte
		ends    []int
	)
	in := &typedDir{s: s, dir: dir}
	buf := make([]byte, 32<<10)
	for {
		var n int
		var rerr error
		if err := rc.Read(func(fd uintptr) bool {
			for {
				n, rerr = syscall.ReadDirent(int(fd), buf)
				if rerr != syscall.EINTR {
					return true
				}
			}
		}); err != nil {
			return nil, err
		}
		if rerr != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: rerr}
		}
		if n <= 0 {
			all, start := string(names), 0
			for i, end := range ends {
				entries[i].name, start = all[start:end], end
			}
			return sortTyped(entries), nil
		}
		// struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16, d_type u8, d_name.
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			ino, typ, name := binary.NativeEndian.Uint64(b[0:8]), b[18], b[19:reclen]
			b = b[reclen:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ino == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			e := typedEntry{in: in}
			switch typ {
			case syscall.DT_REG:
			case syscall.DT_DIR:
				e.typ = fs.ModeDir
			case syscall.DT_LNK:
				e.typ = fs.ModeSymlink
			case syscall.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				e.typ = fs.ModeSocket
			case syscall.DT_CHR:
				e.typ = fs.ModeDevice | fs.ModeCharDevice
			case syscall.DT_BLK:
				e.typ = fs.ModeDevice
			default: // DT_UNKNOWN
				fi, err := s.fs().Lstat(path.Join(dir, string(name)))
				if err != nil {
					continue // gone since
				}
				e.typ = fi.Mode().Type()
			}
			entries = append(entries, e)
			names = append(names, name...)
			ends = append(ends, len(names))
		}
	}
}
