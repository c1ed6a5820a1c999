package testdeadline

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestRemaining(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		left, want time.Duration
		ok         bool
	}{
		{30 * time.Minute, 30*time.Minute - 30*time.Second, true},
		{100 * time.Second, 90 * time.Second, true},
		{-time.Second, time.Millisecond, true},
		{0, 7 * time.Minute, false},
	} {
		if got := remaining(now, now.Add(c.left), c.ok, 7*time.Minute); got != c.want {
			t.Errorf("remaining(%v left, ok %v) = %v, want %v", c.left, c.ok, got, c.want)
		}
	}
}

// Issue 33, item 2: package web's wasm build had a fixed 5-minute limit whatever
// -timeout the run was given. Run this test binary again with -test.timeout=2h: the
// limit it derives must follow, well past five minutes.
func TestRemainingFollowsTimeout(t *testing.T) {
	if os.Getenv("TESTDEADLINE_CHILD") == "1" {
		if got := Remaining(t, time.Minute); got < time.Hour {
			t.Fatalf("Remaining = %v with -test.timeout=2h", got)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRemainingFollowsTimeout$", "-test.timeout=2h", "-test.v")
	cmd.Env = append(os.Environ(), "TESTDEADLINE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("with -test.timeout=2h: %v\n%s", err, out)
	}
}
