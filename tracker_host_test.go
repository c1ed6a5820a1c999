//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestReadBeforeEditHashNotTime changes a file behind the session's back keeping its size
// and modification time: the content hash still tells.
func TestReadBeforeEditHashNotTime(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(name, []byte("aaaa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(name, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ws.Read(ctx, "a.txt", llmfs.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte("bbbb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Edit(ctx, "a.txt", "bbbb", "cccc", false); llmfs.CodeOf(err) != llmfs.CodeFileChanged {
		t.Errorf("Edit after a same-size, same-time change = %v, want FILE_CHANGED", err)
	}
}
