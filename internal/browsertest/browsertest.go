//go:build !js && !wasip1

// Package browsertest holds what the browser tests of several packages share: finding
// Chromium, and starting an llmfs process and reading the URL it prints.
package browsertest

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// Chromium returns the browser to drive: $LLMFS_CHROMIUM, or chromium on PATH. Without
// one the test is skipped, saying which tests (what) are skipped, and fails when
// LLMFS_REQUIRE_CHROMIUM is set. With go test -short the test is skipped too: browser
// tests are the slowest of the suite.
func Chromium(t *testing.T, what string) string {
	t.Helper()
	if testing.Short() {
		// Not naming the browser: testreport reads a skip that does as a missing dependency.
		t.Skip(what + " are skipped in -short mode")
	}
	if p := os.Getenv("LLMFS_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "no chromium on PATH (Debian: apt-get install -y chromium; or set LLMFS_CHROMIUM)"
	if os.Getenv("LLMFS_REQUIRE_CHROMIUM") != "" {
		t.Fatal(msg + ", and LLMFS_REQUIRE_CHROMIUM is set")
	}
	t.Skip(msg + ": " + what + " are skipped")
	return ""
}

// StartURL starts cmd, stopped with an interrupt when the test ends, and returns the first
// submatch of url in a line of its standard error: the address a server prints at start.
// The rest of standard error is drained so the process never blocks on it.
func StartURL(t *testing.T, cmd *exec.Cmd, url *regexp.Regexp) string {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := url.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatalf("%s printed no line matching %s", cmd.Path, url)
		return ""
	}
}
