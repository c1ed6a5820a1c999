package llmfs_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

func TestDirectoryList_SortedByName(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, n := range []string{"zeta.txt", "Alpha.txt", "beta/x", "_under", "10.txt", "2.txt", "日本.txt", "a b.txt"} {
			put(t, w, n, "x")
		}
		entries, err := w.List(bg, ".")
		noErr(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name)
		}
		want := "10.txt 2.txt Alpha.txt _under a b.txt beta zeta.txt 日本.txt"
		if got := strings.Join(names, " "); got != want {
			t.Errorf("List = %q, want %q", got, want)
		}
	})
}

func TestDirectoryList_EntryFields(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/file.txt", "12345")
		put(t, w, "d/empty", "")
		put(t, w, "d/sub/inner", "not counted")
		entries, err := w.List(bg, "d")
		noErr(t, err)
		want := []llmfs.Entry{
			{Name: "empty", Type: llmfs.TypeFile, Size: 0},
			{Name: "file.txt", Type: llmfs.TypeFile, Size: 5},
			{Name: "sub", Type: llmfs.TypeDirectory, Size: 0},
		}
		if len(entries) != len(want) {
			t.Fatalf("List(d) = %v", entries)
		}
		for i := range want {
			got := entries[i]
			if got.Name != want[i].Name || got.Type != want[i].Type || got.Size != want[i].Size {
				t.Errorf("entry %d = %+v, want %+v", i, got, want[i])
			}
			if got.ModTime.IsZero() {
				t.Errorf("entry %s has no ModTime", got.Name)
			}
		}
	})
}

func TestDirectoryList_DirectorySizeZero(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for i := range 50 {
			put(t, w, "big/"+strings.Repeat("n", i+1), strings.Repeat("x", 1000))
		}
		entries, err := w.List(bg, ".")
		noErr(t, err)
		if len(entries) != 1 || entries[0].Type != llmfs.TypeDirectory || entries[0].Size != 0 {
			t.Errorf("List(.) = %+v, want big as a directory of size 0", entries)
		}
	})
}

func TestDirectoryList_EmptyDirectory(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		entries, err := w.List(bg, ".")
		noErr(t, err)
		if entries == nil || len(entries) != 0 {
			t.Errorf("List of an empty root = %#v, want an empty, non-nil list", entries)
		}
	})
}

func TestDirectoryList_MustBeDirectory(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "x")
		_, err := w.List(bg, "f.txt")
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.List(bg, "missing")
		wantCode(t, err, llmfs.CodeFileNotFound)
		_, err = w.List(bg, "")
		wantCode(t, err, llmfs.CodeInvalidPath)
	})
}
