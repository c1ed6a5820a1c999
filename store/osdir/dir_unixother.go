//go:build unix && !linux

package osdir

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath opens name below the directory dirfd one element at a time with O_NOFOLLOW
// ([openElems]): no symbolic link is followed anywhere on the way. link reports that the
// open failed on a symbolic link.
func openBeneath(dirfd int, name string, flags int) (fd int, link bool, err error) {
	return openElems(dirfd, name, flags)
}

// list lists d, sorted by name if sorted, as os.File.ReadDir reads it, from its start.
func (d *fdDir) list(sorted, _ bool) ([]fs.DirEntry, error) {
	// A duplicate, since the os.File closes what it holds; rewound, as a second listing
	// of d starts where the first ended.
	dup, err := unix.FcntlInt(uintptr(d.fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), d.name)
	defer f.Close()
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	read, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	ents := make([]fdEntry, len(read))
	for i, de := range read {
		ents[i] = fdEntry{name: de.Name(), typ: de.Type(), in: d}
	}
	des := make([]fs.DirEntry, len(ents))
	for i := range ents {
		des[i] = &ents[i]
	}
	if sorted {
		des = sortEntries(des)
	}
	return des, nil
}

// localFS reports whether a short read of a regular file below the directory fd means
// its end; here none is taken for it (see the Linux version).
func localFS(fd int) bool { return false }

// openSameFS opens no directory here: see the Linux version.
func openSameFS(dirfd int, name string) (fd int, ok bool) { return -1, false }

// openName is openat(2) of name below dirfd.
func openName(dirfd int, name string, flags int) (int, error) {
	return unix.Openat(dirfd, name, flags, 0)
}
