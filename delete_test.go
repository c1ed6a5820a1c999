package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
)

func TestFileDelete_RemovesRegularFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/f.txt", "x")
		put(t, w, "d/g.txt", "y")
		_, err := w.Delete(bg, "d/f.txt")
		noErr(t, err)
		if exists(w, "d/f.txt") {
			t.Errorf("d/f.txt still exists")
		}
		if mustRaw(t, w, "d/g.txt") != "y" || !isDir(w, "d") {
			t.Errorf("Delete removed more than the file")
		}
	})
}

func TestFileDelete_ReturnsAbsolutePath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/f.txt", "x")
		got, err := w.Delete(bg, "./d/../d/f.txt")
		noErr(t, err)
		if got != abs(w, "d/f.txt") {
			t.Errorf("Delete = %q, want %q", got, abs(w, "d/f.txt"))
		}
	})
}

func TestFileDelete_DirectoryIsInvalidPath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "full/f.txt", "x")
		_, err := w.Mkdir(bg, "empty")
		noErr(t, err)
		for _, p := range []string{"full", "empty", ".", w.Root(), "empty/"} {
			_, err := w.Delete(bg, p)
			wantCode(t, err, llmfs.CodeInvalidPath)
		}
		if !isDir(w, "full") || !isDir(w, "empty") || mustRaw(t, w, "full/f.txt") != "x" {
			t.Errorf("a refused Delete changed a directory")
		}
	})
}

func TestFileDelete_MissingIsFileNotFound(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Delete(bg, "missing.txt")
		wantCode(t, err, llmfs.CodeFileNotFound)
		_, err = w.Delete(bg, "no/such/dir/f.txt")
		wantCode(t, err, llmfs.CodeFileNotFound)
	})
}

func TestFileDelete_NeedsFullMode(t *testing.T) {
	for _, mode := range []llmfs.Mode{llmfs.ReadOnly, llmfs.ReadWrite} {
		eachBackend(t, &llmfs.Options{Mode: mode}, func(t *testing.T, w *llmfs.Workspace) {
			_, err := w.Delete(bg, "f.txt")
			wantCode(t, err, llmfs.CodePermissionDenied)
		})
	}
}
