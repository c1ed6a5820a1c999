//go:build unix

// Package cputime reads the CPU time the process has used, for benchmarks that report it
// per operation beside the wall time, which a loaded machine inflates.
package cputime

import (
	"syscall"
	"time"
)

// Self is the CPU time (user and system) the process has used so far, or 0 where the
// system does not say.
func Self() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
