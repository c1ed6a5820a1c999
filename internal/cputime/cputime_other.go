//go:build !unix

// Package cputime reads the CPU time the process has used, for benchmarks that report it
// per operation beside the wall time, which a loaded machine inflates.
package cputime

import "time"

// Self is the CPU time the process has used so far, or 0 where the system does not say
// (here).
func Self() time.Duration { return 0 }
