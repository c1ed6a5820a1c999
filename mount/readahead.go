//go:build linux

package mount

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hanwen/go-fuse/v2/splice"
	"golang.org/x/sys/unix"
)

// How large a file's reads through the mount are. A read request is answered by splicing
// the store's file into a pipe and the pipe into /dev/fuse, with no copy through the mount
// (see handle.Read); that needs the reply (header, data and a page of slack) to fit in one
// pipe. A request larger than the largest pipe falls back to reading into the mount's
// memory and writing it out again, two copies instead of none, so requests stop just
// short of the pipe's size.
//
// The kernel asks for no more than its read-ahead window at a time, and a FUSE mount's
// window starts at 128 KiB whatever the mount offers. The mount widens it (as root:
// /sys/class/bdi/MAJ:MIN/read_ahead_kb) so that a sequential read arrives as several
// full requests in flight at once, served in parallel.

// requestSize returns the largest read or write request the mount accepts.
func requestSize() int {
	page := os.Getpagesize()
	size := 1 << 20 // the kernel's limit: 256 pages
	if fit := splice.MaxPipeSize() - 2*page; fit < size {
		size = fit
	}
	return max(size/page*page, 128<<10)
}

// readAheadWindow is the read-ahead the mount asks of the kernel: a few requests' worth.
const readAheadWindow = 4 << 20

// widenReadAhead sets the kernel's read-ahead window of the file system mounted at dir to
// bytes. It needs root; elsewhere the kernel's default stays, and reads are smaller.
func widenReadAhead(dir string, bytes int) error {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return err
	}
	dev := strconv.Itoa(int(unix.Major(st.Dev))) + ":" + strconv.Itoa(int(unix.Minor(st.Dev)))
	name := filepath.Join("/sys/class/bdi", dev, "read_ahead_kb")
	if err := os.WriteFile(name, []byte(strconv.Itoa(bytes>>10)), 0); err != nil {
		return fmt.Errorf("read-ahead of %s: %w", dir, err)
	}
	return nil
}
