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

// TestReadBeforeOverwriteBigFileByIdentity: a file too large to edit is known by its
// identity, not hashed on read; an overwrite after it changed is still refused, whether
// the change kept its size and moved its modification time or kept both (the change time
// tells), and an overwrite of the unchanged file goes through.
func TestReadBeforeOverwriteBigFileByIdentity(t *testing.T) {
	defer llmfs.SetRacyWindow(0)()
	dir := t.TempDir()
	name := filepath.Join(dir, "big.txt")
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	put := func(content string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: true, Limits: llmfs.Limits{MaxEditBytes: 8}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	read := func() {
		t.Helper()
		if _, err := ws.Read(ctx, "big.txt", llmfs.ReadOptions{Limit: 1}); err != nil {
			t.Fatal(err)
		}
	}
	overwrite := func(want llmfs.Code) {
		t.Helper()
		_, err := ws.Write(ctx, "big.txt", "mine, also big\n", llmfs.WriteOptions{})
		if llmfs.CodeOf(err) != want {
			t.Errorf("overwrite = %v, want %q", err, want)
		}
	}

	for _, tc := range []struct {
		what  string
		mtime time.Time
	}{
		{"same size, later modification time", stamp.Add(time.Second)},
		{"same size, same modification time", stamp},
	} {
		put("aaaaaaaaaaaaaaaa\n", stamp)
		read()
		put("bbbbbbbbbbbbbbbb\n", tc.mtime)
		overwrite(llmfs.CodeFileChanged)
		if b, _ := os.ReadFile(name); string(b) != "bbbbbbbbbbbbbbbb\n" {
			t.Errorf("%s: file = %q after a refused overwrite", tc.what, b)
		}
	}

	// Unchanged since the read: the overwrite goes through, and a second one too (the
	// write itself is known by its hash).
	put("cccccccccccccccc\n", stamp)
	read()
	overwrite("")
	overwrite("")
	// An edit of a file known by identity, since shrunk to editable size, is refused.
	put("dddddddddddddddd\n", stamp)
	read()
	put("small\n", stamp)
	if _, err := ws.Edit(ctx, "big.txt", "small", "x", false); llmfs.CodeOf(err) != llmfs.CodeFileChanged {
		t.Errorf("Edit after the file shrank = %v, want FILE_CHANGED", err)
	}
	// A move keeps what the session knew, though the rename moves the change time.
	put("eeeeeeeeeeeeeeee\n", stamp)
	read()
	if _, err := ws.Move(ctx, "big.txt", "moved.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Write(ctx, "moved.txt", "mine, also big\n", llmfs.WriteOptions{}); err != nil {
		t.Errorf("overwrite after a move = %v", err)
	}
}
