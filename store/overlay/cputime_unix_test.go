//go:build unix

package overlay_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the test process has used: benchmarks report
// it per operation beside the wall time, which a loaded machine inflates.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
