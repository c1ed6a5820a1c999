// Package testdeadline gives a test's slow steps (a build, a browser waiting on a page)
// time limits that scale with the run's own: go test -timeout. A fixed limit, say five
// minutes for the WebAssembly build, is too short on a busy 2-core machine and too long to
// notice a hang on a fast one; the run's deadline is what the person running the tests
// chose for both.
package testdeadline

import (
	"context"
	"testing"
	"time"
)

// Remaining returns how long a step of t may take: the time left before t's deadline
// (go test -timeout), less a margin so the test can still report why it stopped, or
// fallback when the run has no deadline (-timeout 0).
func Remaining(t *testing.T, fallback time.Duration) time.Duration {
	deadline, ok := t.Deadline()
	return remaining(time.Now(), deadline, ok, fallback)
}

// Context returns a context that ends when [Remaining] says.
func Context(t *testing.T, fallback time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), Remaining(t, fallback))
}

// remaining is Remaining at now: the margin is a tenth of the time left, at most 30 s and
// at least none, so a step near the end still gets what is left.
func remaining(now, deadline time.Time, ok bool, fallback time.Duration) time.Duration {
	if !ok {
		return fallback
	}
	left := deadline.Sub(now)
	if left <= 0 {
		return time.Millisecond // the run is over; fail fast rather than never
	}
	return left - min(left/10, 30*time.Second)
}
