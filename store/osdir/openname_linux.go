package osdir

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// nameBuf is the length of the names openName passes from the stack.
const nameBuf = 256

// openName is openat(2) of name below dirfd, as unix.Openat makes it, but with the name
// passed from a buffer on the stack rather than a copy on the heap: a grep opens each
// file of a tree by its one name, and those copies were a fifth of its allocations
// (issue 40). A longer name, or one holding a NUL, goes through unix.Openat.
func openName(dirfd int, name string, flags int) (int, error) {
	if len(name) >= nameBuf {
		return unix.Openat(dirfd, name, flags, 0)
	}
	var buf [nameBuf]byte
	for i := 0; i < len(name); i++ {
		if name[i] == 0 {
			return unix.Openat(dirfd, name, flags, 0) // its EINVAL
		}
		buf[i] = name[i]
	}
	fd, _, errno := syscall.Syscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&buf[0])), uintptr(flags), 0, 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}
