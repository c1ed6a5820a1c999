//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestRealPath: a path's links are followed (a missing last element kept), in the view's
// terms; a link out of the root is INVALID_PATH.
func TestRealPath(t *testing.T) {
	top, err := filepath.EvalSymlinks(t.TempDir())
	noErr(t, err)
	root, outside := filepath.Join(top, "root"), filepath.Join(top, "outside")
	noErr(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	noErr(t, os.MkdirAll(filepath.Join(root, "memories"), 0o755))
	noErr(t, os.Mkdir(outside, 0o755))
	noErr(t, os.Symlink("../src", filepath.Join(root, "memories", "l")))
	noErr(t, os.Symlink(outside, filepath.Join(root, "memories", "out")))
	ws, err := host.Open(&llmfs.Options{Root: root})
	noErr(t, err)
	v := ws.With(llmfs.VirtualPaths())
	for p, want := range map[string]string{
		"/memories/l":         "/src",
		"/memories/l/new.txt": "/src/new.txt",
		"/memories/plain.txt": "/memories/plain.txt",
		"/":                   "/",
	} {
		if got, err := v.Paths().Real(bg, p); err != nil || got != want {
			t.Errorf("RealPath(%s) = %q, %v; want %q", p, got, err, want)
		}
	}
	if got, err := ws.Paths().Real(bg, "memories/l/a.go"); err != nil || got != filepath.Join(root, "src", "a.go") {
		t.Errorf("RealPath(memories/l/a.go) = %q, %v", got, err)
	}
	for _, p := range []string{"/memories/out", "/memories/out/x.txt"} {
		if got, err := v.Paths().Real(bg, p); llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
			t.Errorf("RealPath(%s) = %q, %v; want INVALID_PATH", p, got, err)
		}
	}
}
