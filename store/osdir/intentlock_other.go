//go:build !unix && !js && !wasip1

package osdir

import "os"

// Without flock, an intent log is kept consistent within one process only.
func flockExclusive(f *os.File) {}

func funlock(f *os.File) {}
