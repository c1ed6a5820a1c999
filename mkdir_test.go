package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
)

func TestDirectoryCreate_Recursive(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		got, err := w.Mkdir(bg, "a/b/c")
		noErr(t, err)
		for _, d := range []string{"a", "a/b", "a/b/c"} {
			if !isDir(w, d) {
				t.Errorf("%s is not a directory", d)
			}
		}
		if got != abs(w, "a/b/c") {
			t.Errorf("Mkdir = %q, want %q", got, abs(w, "a/b/c"))
		}
	})
}

func TestDirectoryCreate_ExistingIsFine(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a/b/keep.txt", "kept")
		for _, p := range []string{"a", "a/b", ".", w.Root(), "a/b/../b"} {
			if _, err := w.Mkdir(bg, p); err != nil {
				t.Errorf("Mkdir(%q) of an existing directory: %v", p, err)
			}
		}
		if mustRaw(t, w, "a/b/keep.txt") != "kept" {
			t.Errorf("Mkdir of an existing directory changed its content")
		}
	})
}

func TestDirectoryCreate_ReturnsAbsolutePath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, p := range []string{"x/y", "./x/y/", "x/../x/y", abs(w, "x/y")} {
			got, err := w.Mkdir(bg, p)
			noErr(t, err)
			if got != abs(w, "x/y") {
				t.Errorf("Mkdir(%q) = %q, want %q", p, got, abs(w, "x/y"))
			}
		}
		if got, err := w.Mkdir(bg, "."); err != nil || got != w.Root() {
			t.Errorf("Mkdir(.) = %q, %v; want the root %q", got, err, w.Root())
		}
	})
}

func TestDirectoryCreate_FileInTheWay(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f", "x")
		_, err := w.Mkdir(bg, "f")
		wantCode(t, err, llmfs.CodeFileAlreadyExists)
		_, err = w.Mkdir(bg, "f/sub")
		if err == nil {
			t.Errorf("Mkdir below a file succeeded")
		}
		if mustRaw(t, w, "f") != "x" {
			t.Errorf("the file in the way changed")
		}
	})
}

func TestDirectoryCreate_ReadOnlyModeRefused(t *testing.T) {
	eachBackend(t, &llmfs.Options{Mode: llmfs.ReadOnly}, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Mkdir(bg, "d")
		wantCode(t, err, llmfs.CodePermissionDenied)
		if exists(w, "d") {
			t.Errorf("a refused Mkdir created the directory")
		}
	})
}
