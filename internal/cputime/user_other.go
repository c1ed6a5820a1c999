//go:build !unix

package cputime

import "time"

// User is the user CPU time the process has used so far, or 0 where the system does not
// say (here).
func User() time.Duration { return 0 }
