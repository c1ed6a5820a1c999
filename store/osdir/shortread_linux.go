package osdir

import (
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// A read of a regular file that returns fewer bytes than asked means the file's end on
// the local disk file systems of [localFS]: their reads loop until the request is met or
// the file ends (only a fatal signal cuts one short). Not on every file system: /proc
// hands out a page per read, and a FUSE server with direct I/O returns what it likes. A
// directory handle knows whether its files are on such a file system (fdDir.shortEOF),
// and its files then report their end with the short read's bytes: a grep of a tree of
// small files saves the second read per file, which only returned 0 (issue 40).

// noXdev is set once openat2 with RESOLVE_NO_XDEV has been refused (a kernel before 5.6,
// or a seccomp filter): subdirectories then never take the short-read end.
var noXdev atomic.Bool

// localFS reports whether the directory fd is on a file system whose short reads of a
// regular file mean its end.
func localFS(fd int) bool {
	var st unix.Statfs_t
	for {
		err := unix.Fstatfs(fd, &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false
		}
		break
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC:
		return true
	}
	return false
}

// openSameFS opens name, a single name below dirfd, as a directory on dirfd's own file
// system: openat2 with RESOLVE_NO_XDEV refuses a mount point (another file system, or a
// bind mount, in doubt) as it refuses a symbolic link, in the one open a walk makes
// anyway. ok is false when it did not open, for any reason: the caller then opens name
// as it opens any name and gets the error, if any, from that open.
func openSameFS(dirfd int, name string) (fd int, ok bool) {
	if noXdev.Load() || noOpenat2.Load() || strings.Contains(name, "/") || name == ".." {
		return -1, false
	}
	how := unix.OpenHow{
		Flags:   uint64(dirFlags) | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	}
	for {
		fd, err := unix.Openat2(dirfd, name, &how)
		switch err {
		case nil:
			return fd, true
		case unix.EINTR, unix.EAGAIN:
			continue
		case unix.ENOSYS, unix.EPERM, unix.EINVAL:
			// No openat2 or no such resolve flag here (EPERM: what an older seccomp
			// filter answers for a call it does not know; a directory's open has no
			// other EPERM).
			noXdev.Store(true)
		}
		return -1, false
	}
}
