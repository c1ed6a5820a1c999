//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
)

// TestWithStoreOverlayLeavesHost: a host workspace put over an overlay writes to the
// overlay only, also when the host store keeps a journal (whose writes would go to the
// host).
func TestWithStoreOverlayLeavesHost(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644)
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	ov, err := overlay.New(context.Background(), ws.Store(), mem.New())
	if err != nil {
		t.Fatal(err)
	}
	rw := ws.With(llmfs.OnStore(ov))
	if _, err := rw.Edit(context.Background(), "a.txt", "old", "new", false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "old\n" {
		t.Errorf("host a.txt = %q, want it untouched", b)
	}
}
