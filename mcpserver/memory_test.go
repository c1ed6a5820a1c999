//go:build linux

package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// procStatus returns a field of /proc/PID/status in bytes (VmHWM: the peak resident set).
func procStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// Issue 12.7: one 15 MB file_write over HTTP peaked at about 200 MB of RSS, 8 concurrent
// ones at about 1 GB: nothing bounded the bodies in flight. With the server's memory
// budget (--mem-budget, and GOMEMLIMIT from it) 8 concurrent 15 MB writes stay under
// 256 MiB, and each write lands whole. LLMFS_TEST_SERVE_FLAGS adds flags to the server
// (--mem-budget -1 to see the figure without the budget).
func TestHTTPConcurrentWritesMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 120 MB through a server; skipped in -short mode")
	}
	dir := tempDir(t)
	s := startServe(t, append([]string{"--root", dir}, strings.Fields(os.Getenv("LLMFS_TEST_SERVE_FLAGS"))...)...)
	// Three writers by default (they pass 256 MiB without the budget, and on a shared
	// machine each waits its turn for several seconds); LLMFS_LOAD=1 runs the goal's 8;
	// LLMFS_TEST_WRITERS=N any number (1: one write alone).
	writers, size := 3, 15<<20
	if os.Getenv("LLMFS_LOAD") != "" {
		writers = 8
	}
	if n, err := strconv.Atoi(os.Getenv("LLMFS_TEST_WRITERS")); err == nil {
		writers = n
	}
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		cs := s.connect(t, nil)
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			content := strings.Repeat(string(rune('a'+i)), size-1) + "\n"
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_write", Arguments: map[string]any{"path": fmt.Sprintf("big%d.txt", i), "content": content}})
			switch {
			case err != nil:
				errs <- err
			case res.IsError:
				errs <- fmt.Errorf("write %d: %s", i, text(res))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range writers {
		if st, err := os.Stat(fmt.Sprintf("%s/big%d.txt", dir, i)); err != nil || st.Size() != int64(size) {
			t.Errorf("big%d.txt: %v", i, err)
		}
	}
	peak := procStatus(t, s.cmd.Process.Pid, "VmHWM")
	t.Logf("peak RSS of the server: %d MiB", peak>>20)
	if peak > 256<<20 {
		t.Errorf("peak RSS %d MiB, want under 256 MiB", peak>>20)
	}
}
