//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
)

func polHostStores() []polStore {
	return []polStore{{"osdir", func(t *testing.T, files map[string]string, opts *llmfs.Options) (*llmfs.Workspace, store.Store) {
		dir := t.TempDir()
		polTree(t, dir, files)
		o := *opts
		o.Root = dir
		w, err := host.Open(&o)
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
	w, err := host.Open(opts)
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
	w2, err := host.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	if b, n, _ := w2.Usage(ctx); b != 30 || n != 3 {
		t.Errorf("Usage after reopening = %d bytes, %d files; want 30, 3", b, n)
	}
	_, err = w2.Write(ctx, "c", "c", llmfs.WriteOptions{})
	polCode(t, "write after reopening", err, llmfs.CodeQuotaExceeded)
}

// A relaxed workspace's quota bounds what lies under its root (see [llmfs.Quota]): writes
// outside the root neither count against it nor drift its usage.
func TestQuotaRelaxedOutsideRoot(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "ws")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := host.Open(&llmfs.Options{Root: root, Relaxed: true, Quota: llmfs.Quota{MaxBytes: 10, MaxFiles: 3}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []string{"../out.txt", "../o/u/t.txt"} {
		if _, err := w.Write(ctx, p, "12345678", llmfs.WriteOptions{}); err != nil {
			t.Fatalf("Write(%q) outside the root: %v", p, err)
		}
	}
	if _, err := w.Mkdir(ctx, "../d/e"); err != nil {
		t.Fatal(err)
	}
	b, n, err := w.Usage(ctx)
	if err != nil || b != 0 || n != 0 {
		t.Errorf("Usage after writes outside the root = %d bytes, %d entries, %v; want 0, 0", b, n, err)
	}
	if _, err := w.Write(ctx, "in.txt", "12345678", llmfs.WriteOptions{}); err != nil {
		t.Errorf("Write inside the root: %v", err)
	}
	// Moving a file in is admitted as a copy would be; moving one out frees its room.
	if _, err := w.Move(ctx, "../out.txt", "sub/out.txt"); llmfs.CodeOf(err) != llmfs.CodeQuotaExceeded {
		t.Errorf("Move into a full root = %v, want %s", err, llmfs.CodeQuotaExceeded)
	}
	if _, err := w.Move(ctx, "in.txt", "../in.txt"); err != nil {
		t.Fatal(err)
	}
	if b, n, _ := w.Usage(ctx); b != 0 || n != 0 {
		t.Errorf("Usage after moving the only file out = %d bytes, %d entries; want 0, 0", b, n)
	}
	if _, err := w.Move(ctx, "../in.txt", "sub/in.txt"); err != nil {
		t.Fatal(err)
	}
	if b, n, _ := w.Usage(ctx); b != 8 || n != 2 {
		t.Errorf("Usage after moving a file in = %d bytes, %d entries; want 8, 2", b, n)
	}
	if _, err := w.Delete(ctx, "../o/u/t.txt"); err != nil {
		t.Fatal(err)
	}
	if b, n, _ := w.Usage(ctx); b != 8 || n != 2 {
		t.Errorf("Usage after deleting a file outside the root = %d bytes, %d entries; want 8, 2", b, n)
	}
	fresh, err := host.Open(&llmfs.Options{Root: root, Quota: llmfs.Quota{MaxFiles: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if b, n, _ := fresh.Usage(ctx); b != 8 || n != 2 {
		t.Errorf("Usage counted afresh = %d bytes, %d entries; want 8, 2", b, n)
	}
}
