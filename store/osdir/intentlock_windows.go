//go:build windows

package osdir

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset is the byte of the intent log that its lock covers: one far past any record.
// Windows's byte-range locks are mandatory (a locked range refuses other handles' reads
// and writes), so the lock is taken where nobody reads or writes; it may lie past the end
// of the file.
const lockOffset = 1 << 62

// flockExclusive takes an exclusive lock on f's lock byte, waiting for it (LockFileEx
// without LOCKFILE_FAIL_IMMEDIATELY): the other holders are llmfs processes appending a
// record to, or folding, a journal's intent log, each for a moment.
func flockExclusive(f *os.File) error {
	ol := lockOverlapped()
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol)
}

func funlock(f *os.File) {
	ol := lockOverlapped()
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}

func lockOverlapped() windows.Overlapped {
	return windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
}
