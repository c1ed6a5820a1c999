//go:build !js && !wasip1

package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store/osdir"
)

// TestSearchSwapDirForLink: grep and find over a host directory whose subdirectories are
// swapped for symbolic links to a directory outside the root while they walk never list
// or read what is outside, following links or not. The walk opens each directory below
// its parent's handle and each file below the root without following a link; before,
// on macOS and on Linux before 5.6, a directory on the way swapped for a link was
// followed. (store/storetest's SwapWalk runs the same for every store with links.)
func TestSearchSwapDirForLink(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{outside + "/sub", outside + "/c/sub", root + "/a/sub", root + "/b/c/sub"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Outside holds the names inside holds, and a name of its own: what the walk listed
	// inside and then reads is outside's should a link on the way be followed.
	for _, f := range []string{outside + "/secret.txt", outside + "/sub/secret.txt", outside + "/in.txt", outside + "/sub/in.txt", outside + "/c/in.txt"} {
		if err := os.WriteFile(f, []byte("needle SECRET\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{root + "/a/in.txt", root + "/a/sub/in.txt", root + "/b/c/in.txt", root + "/b/c/sub/in.txt"} {
		if err := os.WriteFile(f, []byte("needle inside\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, root+"/probe"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Remove(root + "/probe")
	s, err := osdir.New(root, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	var swappers sync.WaitGroup
	for _, d := range []string{root + "/a", root + "/b/c"} {
		swappers.Go(func() {
			for range 400 {
				if os.Rename(d, d+".aside") != nil {
					continue
				}
				if os.Symlink(outside, d) == nil {
					time.Sleep(20 * time.Microsecond)
					os.Remove(d)
				}
				for os.Rename(d+".aside", d) != nil {
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { swappers.Wait(); close(done) }()
	ctx := context.Background()
	for round := 0; ; round++ {
		select {
		case <-done:
			return
		default:
		}
		follow := round%2 == 1
		g, err := Grep(ctx, s, ".", GrepOptions{Pattern: "needle", Mode: Content, Follow: follow})
		if err == nil {
			for _, e := range g.Entries {
				if strings.Contains(e.Text, "SECRET") || strings.Contains(e.Path, "secret") {
					t.Fatalf("grep (follow %v) read outside the root: %s: %q", follow, e.Path, e.Text)
				}
			}
		}
		f, err := Find(ctx, s, ".", FindOptions{Pattern: "**", Follow: follow})
		if err == nil {
			for _, e := range f.Files {
				if strings.Contains(e.Path, "secret") {
					t.Fatalf("find (follow %v) listed outside the root: %s", follow, e.Path)
				}
			}
		}
	}
}
