//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestDirectoryCreate_DanglingSymlinkInTheWay checks that a dangling link where the
// directory should be is reported, not taken for the directory.
func TestDirectoryCreate_DanglingSymlinkInTheWay(t *testing.T) {
	dir := t.TempDir()
	w, err := host.Open(&llmfs.Options{Root: dir})
	noErr(t, err)
	noErr(t, os.Symlink("nowhere", filepath.Join(dir, "ln")))
	if got, err := w.Mkdir(bg, "ln"); err == nil {
		t.Errorf("Mkdir(ln) over a dangling link = %q, nil; want an error", got)
	} else {
		wantCode(t, err, llmfs.CodeFileAlreadyExists)
	}
	if got, err := w.Mkdir(bg, "ln/sub"); err == nil {
		t.Errorf("Mkdir(ln/sub) below a dangling link = %q, nil; want an error", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Errorf("the link's target was created")
	}
}
