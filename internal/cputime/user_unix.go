//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// User is the user CPU time the process has used so far, or 0 where the system does not
// say: without the kernel's time, which on a shared machine swings with the other jobs'
// file system work (an fsync's cost most of all).
func User() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano())
}
