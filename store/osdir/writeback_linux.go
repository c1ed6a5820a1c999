package osdir

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback starts writing f's dirty pages to the disk without waiting for them, so
// that the sync of a batch's files that follows finds them written or under way. A
// failure is left to that sync to report.
func startWriteback(f *os.File) {
	unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}
