//go:build linux

package mount_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/store"
)

// TestSessionLayerKeepsFiles: the session layer keeps each file a process closed as a
// file of its own in the session's directory (it was a row of a SQLite database, one
// transaction per file: a third of the mount's CPU in a git clone).
func TestSessionLayerKeepsFiles(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n"})
			var opts mount.Options
			sess, err := mount.NewSession(ctx, ws, &opts)
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			if _, err := sess.WS.WriteFrom(ctx, "d/b.txt", strings.NewReader("b\n"), llmfs.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			loc, ok := opts.Layer.Upper().(store.Locator)
			if !ok {
				t.Fatalf("the layer's store %T is no host directory", opts.Layer.Upper())
			}
			if b, err := os.ReadFile(loc.HostPath("t/d/b.txt")); err != nil || string(b) != "b\n" {
				t.Errorf("the layer's file: %q, %v", b, err)
			}
			if got := read(t, ws, "a.txt"); got != "a\n" {
				t.Errorf("the workspace's a.txt: %q", got)
			}
		})
	}
}
