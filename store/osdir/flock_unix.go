//go:build unix

package osdir

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockFile takes an advisory lock (flock) on f, which other llmfs processes appending to
// the same file take too, so that two appends never both copy the same old content. It
// waits until deadline at most: a lock some other program holds and keeps must not hang a
// write, so after that the append goes ahead unlocked, as it did before there was a lock.
// Closing f releases the lock.
func lockFile(f *os.File, deadline time.Time) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EWOULDBLOCK && err != unix.EINTR || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
