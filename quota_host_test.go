//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

func polHostStores() []polStore {
	return []polStore{{"osdir", func(t *testing.T, files map[string]string, opts *llmfs.Options) (*llmfs.Workspace, store.Store) {
		dir := t.TempDir()
		polTree(t, dir, files)
		o := *opts
		o.Root = dir
		w, err := llmfs.Open(&o)
		if err != nil {
			t.Fatal(err)
		}
		return w, w.Store()
	}}}
}

// TestQuotaOutsideChangesUnseen pins the documented limit: usage is counted once, so a file
// the user adds behind the workspace's back is not seen until the workspace is opened again.
func TestQuotaOutsideChangesUnseen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := &llmfs.Options{Root: dir, Quota: llmfs.Quota{MaxBytes: 20}}
	w, err := llmfs.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(ctx, "a", "0123456789", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "outside"), []byte(strings.Repeat("o", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(ctx, "b", "0123456789", llmfs.WriteOptions{}); err != nil {
		t.Errorf("write within the counted usage: %v", err)
	}
	w2, err := llmfs.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	if b, n, _ := w2.Usage(ctx); b != 30 || n != 3 {
		t.Errorf("Usage after reopening = %d bytes, %d files; want 30, 3", b, n)
	}
	_, err = w2.Write(ctx, "c", "c", llmfs.WriteOptions{})
	polCode(t, "write after reopening", err, llmfs.CodeQuotaExceeded)
}
