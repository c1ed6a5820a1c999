//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

func TestErrorCodes_PermissionDeniedOnHost(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores file modes")
	}
	dir := t.TempDir()
	w, err := host.Open(&llmfs.Options{Root: dir})
	noErr(t, err)
	put(t, w, "locked/f.txt", "x")
	noErr(t, os.Chmod(filepath.Join(dir, "locked", "f.txt"), 0))
	_, err = w.Read(bg, "locked/f.txt", llmfs.ReadOptions{})
	wantCode(t, err, llmfs.CodePermissionDenied)
	noErr(t, os.Chmod(filepath.Join(dir, "locked"), 0o500))
	defer os.Chmod(filepath.Join(dir, "locked"), 0o755)
	_, err = w.Write(bg, "locked/new.txt", "x", llmfs.WriteOptions{})
	wantCode(t, err, llmfs.CodePermissionDenied)
}
