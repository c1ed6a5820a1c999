//go:build !unix

package llmfs_test

import "time"

// cpuTime is the CPU time the process has used so far; 0 where it is not measured.
func cpuTime() time.Duration { return 0 }
