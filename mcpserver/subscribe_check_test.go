//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSubscribeChecksAsRead: resources/subscribe refuses what resources/read refuses, a
// denied file and a file reached through a link out of the root, with the same code; a
// plain file, and one not yet there, can be subscribed to (issue 31, item 12).
func TestSubscribeChecksAsRead(t *testing.T) {
	dir, outside := tempDir(t), tempDir(t)
	writeFile(t, filepath.Join(dir, "secret.txt"), "s\n")
	writeFile(t, filepath.Join(dir, "plain.txt"), "p\n")
	writeFile(t, filepath.Join(outside, "x.txt"), "x\n")
	if err := os.Symlink(filepath.Join(outside, "x.txt"), filepath.Join(dir, "out.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "outdir")); err != nil {
		t.Fatal(err)
	}
	cs := stdioSession(t, oldClient(), "--root", dir, "--deny", "secret.txt") // resources/subscribe
	ctx := context.Background()
	for _, c := range []struct{ name, code string }{
		{"secret.txt", "PERMISSION_DENIED"},
		{"out.txt", "INVALID_PATH"},
		{"outdir/x.txt", "INVALID_PATH"},
	} {
		uri := fileURI(filepath.Join(dir, c.name))
		_, rerr := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		serr := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
		if rerr == nil || serr == nil || !strings.Contains(serr.Error(), c.code) {
			t.Errorf("%s: read error %v, subscribe error %v; want both refused with %s", c.name, rerr, serr, c.code)
		}
	}
	for _, name := range []string{"plain.txt", "later.txt"} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: fileURI(filepath.Join(dir, name))}); err != nil {
			t.Errorf("subscribe to %s: %v", name, err)
		}
	}
}
