//go:build !js && !wasip1

package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// A search of a database store holds its Go memory to storeSearchLimit, unless GOMEMLIMIT
// says otherwise; a search of a host directory sets no limit (issue 40: 64 MiB peak RSS).
func TestSearchGCLimitsStoreSearch(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})

	searchGC(false)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("host search: memory limit %d, want none", got)
	}
	searchGC(true)
	if got := debug.SetMemoryLimit(-1); got != storeSearchLimit {
		t.Errorf("store search: memory limit %d, want %d", got, storeSearchLimit)
	}
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("store search: GOGC %d, want 400", got)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "1GiB")
	searchGC(true)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: memory limit %d, want the caller's", got)
	}
}
