//go:build !js && !wasip1

package llmfs_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestFileRead_LargeFileStreaming reads near the end of a 50 MB file and checks that the
// read holds only what it returns: lines before the offset are counted, not kept.
func TestFileRead_LargeFileStreaming(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 50 MB file")
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.log"))
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	const lines = 1_000_000 // 50 bytes each
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(bw, "%08d the quick brown fox jumps over the lazy\r\n", i)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	f.Close()
	if fi.Size() != 50*lines {
		t.Fatalf("generated %d bytes", fi.Size())
	}
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := w.Read(bg, "big.log", llmfs.ReadOptions{Offset: lines - 2, Limit: 2})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%08d the quick brown fox jumps over the lazy\r\n%08d the quick brown fox jumps over the lazy\r\n", lines-2, lines-1)
	if res.Content != want || res.TotalLines != lines || res.Lines != 2 || res.Truncated {
		t.Errorf("Read = %q, total %d, lines %d, truncated %v", res.Content, res.TotalLines, res.Lines, res.Truncated)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("reading 2 lines at the end of a 50 MB file allocated %d KiB", alloc>>10)
	if alloc > 4<<20 {
		t.Errorf("reading 2 lines of a 50 MB file allocated %d bytes; the read does not stream", alloc)
	}
	// Without a limit the read stops at the caps and still counts every line.
	runtime.ReadMemStats(&before)
	res, err = w.Read(bg, "big.log", llmfs.ReadOptions{Offset: 500_000, Limit: llmfs.NoLimit})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Lines != llmfs.DefaultMaxReadLines || res.NextOffset != 502_000 || res.TotalLines != lines {
		t.Errorf("Read(500000): truncated %v, %d lines, next %d, total %d", res.Truncated, res.Lines, res.NextOffset, res.TotalLines)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("a capped read of a 50 MB file allocated %d bytes", alloc)
	}
}
