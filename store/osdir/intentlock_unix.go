//go:build unix

package osdir

import (
	"os"

	"golang.org/x/sys/unix"
)

// flockExclusive takes an exclusive flock on f, waiting for it: the other holders are
// llmfs processes appending a record to, or folding, a journal's intent log, each for a
// moment.
func flockExclusive(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}

func funlock(f *os.File) { unix.Flock(int(f.Fd()), unix.LOCK_UN) }
