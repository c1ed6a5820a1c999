//go:build !js && !wasip1

package llmfs_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestReadDeepStreams reads 50 lines near the end of a big file and checks that the read
// allocates a small, fixed amount, not the file. LLMFS_BIG_READ=1 makes the file 1 GiB.
func TestReadDeepStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a big file")
	}
	size := int64(64 << 20)
	if os.Getenv("LLMFS_BIG_READ") != "" {
		size = 1 << 30
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	n := 0
	for written < size {
		n++
		k, _ := fmt.Fprintf(w, "%d the quick brown fox jumps over the lazy dog %x\n", n, n*7919)
		written += int64(k)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ctx := context.Background()
	for _, track := range []bool{false, true} {
		ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: track})
		if err != nil {
			t.Fatal(err)
		}
		at := n - 100
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := ws.Read(ctx, "big.txt", llmfs.ReadOptions{Offset: at, Limit: 50})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if res.Lines != 50 || res.TotalLines != n || !strings.HasPrefix(res.Content, fmt.Sprintf("%d the quick", at)) {
			t.Errorf("Read = %d lines of %d, starting %.20q", res.Lines, res.TotalLines, res.Content)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
			t.Errorf("Read (tracking %v) of a %d-byte file allocated %d bytes; want a bounded buffer", track, written, alloc)
		}
		var buf bytes.Buffer
		runtime.GC()
		runtime.ReadMemStats(&before)
		got, err := ws.ReadTo(ctx, "big.txt", llmfs.ReadOptions{Offset: at, Limit: 50}, &buf)
		runtime.ReadMemStats(&after)
		if err != nil || got != 50 || buf.String() != res.Content {
			t.Errorf("ReadTo = %d, %v; content equal to Read's: %v", got, err, buf.String() == res.Content)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
			t.Errorf("ReadTo allocated %d bytes; want a bounded buffer", alloc)
		}
	}
}

// benchFile writes a 64 MiB file of numbered lines once per benchmark and returns a
// workspace on it, with limits, and its number of lines.
func benchFile(b *testing.B, track bool, limits llmfs.Limits) (*llmfs.Workspace, int) {
	dir := b.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.txt"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	n, written := 0, 0
	for written < 64<<20 {
		n++
		k, _ := fmt.Fprintf(w, "%d the quick brown fox jumps over the lazy dog %x\n", n, n*7919)
		written += k
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: track, Limits: limits})
	if err != nil {
		b.Fatal(err)
	}
	return ws, n
}

// BenchmarkReadDeep: a model's read of 50 lines in the middle of a 64 MiB file without a
// line index (it counts every line for total_lines, and hashes the file when reads are
// tracked).
func BenchmarkReadDeep(b *testing.B) {
	defer llmfs.SetLineIndex(1<<62, 65536)()
	for _, track := range []bool{false, true} {
		b.Run(fmt.Sprintf("tracked=%v", track), func(b *testing.B) {
			ws, n := benchFile(b, track, llmfs.Limits{})
			b.SetBytes(64 << 20)
			for b.Loop() {
				if _, err := ws.Read(context.Background(), "big.txt", llmfs.ReadOptions{Offset: n / 2, Limit: 50}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadDeepIndexed: the same read with the file's line index in memory (a file
// too large to edit, so a tracked read knows it by identity, not by a hash).
func BenchmarkReadDeepIndexed(b *testing.B) {
	defer llmfs.SetRacyWindow(0)()
	defer llmfs.SetLineIndex(16<<20, 65536)()
	b.Setenv("LLMFS_CACHE_DIR", b.TempDir())
	for _, track := range []bool{false, true} {
		b.Run(fmt.Sprintf("tracked=%v", track), func(b *testing.B) {
			ws, n := benchFile(b, track, llmfs.Limits{MaxEditBytes: 1 << 20})
			opts := llmfs.ReadOptions{Offset: n / 2, Limit: 50}
			if _, err := ws.Read(context.Background(), "big.txt", opts); err != nil {
				b.Fatal(err) // builds the index
			}
			b.SetBytes(64 << 20)
			for b.Loop() {
				if _, err := ws.Read(context.Background(), "big.txt", opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadToDeep: a person's read of the same lines, without an index; it stops
// after them.
func BenchmarkReadToDeep(b *testing.B) {
	defer llmfs.SetLineIndex(1<<62, 65536)()
	ws, n := benchFile(b, false, llmfs.Limits{})
	b.SetBytes(32 << 20)
	for b.Loop() {
		if _, err := ws.ReadTo(context.Background(), "big.txt", llmfs.ReadOptions{Offset: n / 2, Limit: 50}, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
