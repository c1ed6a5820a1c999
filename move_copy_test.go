package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
)

func TestFileCopy_CopiesFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "copy me\r\n")
		_, err := w.Copy(bg, "src.txt", "dst.txt")
		noErr(t, err)
		if mustRaw(t, w, "src.txt") != "copy me\r\n" || mustRaw(t, w, "dst.txt") != "copy me\r\n" {
			t.Errorf("after Copy: src %q, dst %q", mustRaw(t, w, "src.txt"), mustRaw(t, w, "dst.txt"))
		}
		// The copy is independent.
		put(t, w, "src.txt", "changed")
		if mustRaw(t, w, "dst.txt") != "copy me\r\n" {
			t.Errorf("changing the source changed the copy")
		}
	})
}

func TestFileCopy_ReturnsAbsolutePaths(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a/src.txt", "x")
		res, err := w.Copy(bg, "a/./src.txt", "./b/../c/dst.txt")
		noErr(t, err)
		if res.Source != abs(w, "a/src.txt") || res.Destination != abs(w, "c/dst.txt") {
			t.Errorf("Copy = %+v", res)
		}
	})
}

func TestFileCopy_DestinationExists(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "source")
		put(t, w, "dst.txt", "destination")
		put(t, w, "dir/inner", "x")
		for _, dst := range []string{"dst.txt", "dir", ".", "src.txt"} {
			_, err := w.Copy(bg, "src.txt", dst)
			wantCode(t, err, llmfs.CodeFileAlreadyExists)
		}
		if mustRaw(t, w, "src.txt") != "source" || mustRaw(t, w, "dst.txt") != "destination" {
			t.Errorf("a refused Copy changed a file")
		}
	})
}

func TestFileCopy_CreatesParents(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "x")
		_, err := w.Copy(bg, "src.txt", "new/deep/dst.txt")
		noErr(t, err)
		if mustRaw(t, w, "new/deep/dst.txt") != "x" || mustRaw(t, w, "src.txt") != "x" {
			t.Errorf("Copy into new directories failed")
		}
	})
}

func TestFileCopy_SourceMustBeRegularFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Copy(bg, "missing.txt", "dst.txt")
		wantCode(t, err, llmfs.CodeFileNotFound)
		put(t, w, "dir/inner", "x")
		_, err = w.Copy(bg, "dir", "copied")
		wantCode(t, err, llmfs.CodeInvalidPath)
		if exists(w, "copied") || exists(w, "dst.txt") {
			t.Errorf("a refused Copy created something")
		}
	})
}

func TestFileCopy_ReadOnlyModeRefused(t *testing.T) {
	eachBackend(t, &llmfs.Options{Mode: llmfs.ReadOnly}, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Copy(bg, "a", "b")
		wantCode(t, err, llmfs.CodePermissionDenied)
		_, err = w.Move(bg, "a", "b")
		wantCode(t, err, llmfs.CodePermissionDenied)
	})
}
