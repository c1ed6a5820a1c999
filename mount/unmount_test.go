//go:build linux

package mount_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// TestUnmountAfterExternalUnmount: a mount that fusermount3 -u took away, and a new mount
// made on the same mountpoint since: unmounting the first must leave the second alone (it
// used to unmount whatever was mounted there).
func TestUnmountAfterExternalUnmount(t *testing.T) {
	requireFUSE(t)
	ctx := context.Background()
	ws := hostWS(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n"})
	dir := t.TempDir()
	first, err := mount.Mount(ctx, ws, dir, mount.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("fusermount3", "-u", dir).CombinedOutput(); err != nil {
		t.Fatalf("fusermount3 -u: %v %s", err, out)
	}
	done := make(chan struct{})
	go func() { first.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return after fusermount3 -u")
	}
	second, err := mount.Mount(ctx, ws, dir, mount.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Unmount()
	if err := first.Unmount(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(dir + "/a.txt"); err != nil || string(b) != "a\n" {
		t.Errorf("the second mount after the first's Unmount: %q %v", b, err)
	}
}
