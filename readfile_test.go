package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
)

// TestReadFile: the whole file, binary included; deny rules, and the size limit refuse, on every backend.
func TestReadFile(t *testing.T) {
	eachBackend(t, &llmfs.Options{Deny: []string{"secret/**"}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "bin.dat", "a\x00b\xff")
		b, err := w.ReadFile(bg, "bin.dat", 100)
		noErr(t, err)
		if string(b) != "a\x00b\xff" {
			t.Errorf("ReadFile = %q", b)
		}
		_, err = w.ReadFile(bg, "bin.dat", 3)
		wantCode(t, err, llmfs.CodeFileTooLarge)
		_, err = w.ReadFile(bg, "secret/k", 100)
		wantCode(t, err, llmfs.CodePermissionDenied)
		_, err = w.ReadFile(bg, "nope", 100)
		wantCode(t, err, llmfs.CodeFileNotFound)
	})
}
