// Package testcache keeps the tests of llmfs out of the user's cache directory.
//
// A host workspace keeps its metadata and its change journal under $LLMFS_CACHE_DIR, or
// else under the user's cache directory (~/.cache/llmfs). Tests open many host workspaces
// in temporary directories; without this, every run leaves hundreds of orphaned journals
// in ~/.cache/llmfs. A package whose tests open host workspaces calls Main from its
// TestMain (or Isolate, when its TestMain does more), so the test binary and every process
// it starts use a fresh temporary cache that is removed at the end.
package testcache

import (
	"fmt"
	"os"
	"testing"
)

// Env is the variable the host store reads for its cache directory.
const Env = "LLMFS_CACHE_DIR"

// Isolate points LLMFS_CACHE_DIR at a new temporary directory and returns a function that
// removes it and restores the previous value. Tests that need their own cache still set
// one with t.Setenv.
func Isolate() (restore func()) {
	dir, err := os.MkdirTemp("", "llmfs-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcache:", err)
		os.Exit(2)
	}
	old, had := os.LookupEnv(Env)
	os.Setenv(Env, dir)
	return func() {
		if had {
			os.Setenv(Env, old)
		} else {
			os.Unsetenv(Env)
		}
		os.RemoveAll(dir)
	}
}

// Main runs the package's tests with an isolated cache directory and exits.
func Main(m *testing.M) {
	restore := Isolate()
	code := m.Run()
	restore()
	os.Exit(code)
}
