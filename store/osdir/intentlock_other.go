//go:build !unix && !windows && !js && !wasip1

package osdir

import "os"

// Without a file lock (outside Unix and Windows), an intent log is kept consistent within
// one process only.
func flockExclusive(f *os.File) error { return nil }

func funlock(f *os.File) {}
