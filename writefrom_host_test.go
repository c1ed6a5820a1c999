//go:build !js && !wasip1

package llmfs_test

import (
	"io"
	"runtime"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// zeros yields n zero bytes, and nothing else: a stream that cannot seek.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), z.n)]
	clear(p)
	z.n -= int64(len(p))
	return len(p), nil
}

// TestWriteFromMemory: a journaled streaming write of 64 MiB to a host directory
// allocates a small part of that (the recorder hashes and writes it in steps): before
// WriteFrom, the recorder read the whole content into memory.
func TestWriteFromMemory(t *testing.T) {
	const size = 64 << 20
	ws, err := host.Open(&llmfs.Options{Root: t.TempDir(), UndoMaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore(ws)
	put(t, ws, "big.bin", "old\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := ws.WriteFrom(bg, "big.bin", &zeros{size}, llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/8 {
		t.Errorf("a %d-byte streaming write allocated %d bytes", size, alloc)
	}
	changes, err := ws.History().List(bg, llmfs.HistoryFilter{Path: "big.bin"})
	noErr(t, err)
	if _, err := ws.History().Undo(bg, changes[0].ID); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if got := mustRaw(t, ws, "big.bin"); got != "old\n" {
		t.Errorf("after undo: %q", got)
	}
}
