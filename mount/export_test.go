//go:build linux

package mount

// PassOpens is the number of read-only opens handed to the kernel's passthrough so far.
func PassOpens() int64 { return passOpens.Load() }

// ReadAheadWindow is the read-ahead the mount asks of the kernel.
const ReadAheadWindow = readAheadWindow

// SpillsMade is the number of spill files made so far.
func SpillsMade() int64 { return spillsMade.Load() }
