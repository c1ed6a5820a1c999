package llmfs_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/llmfs/llmfs"
)

func TestFileWrite_CreatesFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		res, err := w.Write(bg, "new.txt", "hello\r\nworld", llmfs.WriteOptions{})
		noErr(t, err)
		if !res.Created || res.Bytes != 12 {
			t.Errorf("Write = %+v, want Created and 12 bytes", res)
		}
		if got := mustRaw(t, w, "new.txt"); got != "hello\r\nworld" {
			t.Errorf("content %q", got)
		}
	})
}

func TestFileWrite_OverwritesExisting(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "a much longer original content\n")
		res, err := w.Write(bg, "f.txt", "short", llmfs.WriteOptions{})
		noErr(t, err)
		if res.Created {
			t.Errorf("overwrite reports Created")
		}
		if got := mustRaw(t, w, "f.txt"); got != "short" {
			t.Errorf("content %q", got)
		}
		res, err = w.Write(bg, "f.txt", "", llmfs.WriteOptions{Mode: llmfs.Overwrite})
		noErr(t, err)
		if got := mustRaw(t, w, "f.txt"); got != "" || res.Bytes != 0 {
			t.Errorf("after an empty overwrite: %q, %d bytes", got, res.Bytes)
		}
	})
}

func TestFileWrite_CreatesParents(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a/b/c/d/e.txt", "deep")
		for _, d := range []string{"a", "a/b", "a/b/c", "a/b/c/d"} {
			if !isDir(w, d) {
				t.Errorf("%s is not a directory", d)
			}
		}
		if got := mustRaw(t, w, "a/b/c/d/e.txt"); got != "deep" {
			t.Errorf("content %q", got)
		}
		put(t, w, "a/b/other/f.txt", "beside")
		if got := mustRaw(t, w, "a/b/c/d/e.txt"); got != "deep" {
			t.Errorf("a sibling write changed e.txt: %q", got)
		}
	})
}

func TestFileWrite_ReturnsAbsolutePath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, p := range []string{"x/f.txt", "./x/./f.txt", "x/../x/f.txt", abs(w, "x/f.txt")} {
			res, err := w.Write(bg, p, "x", llmfs.WriteOptions{})
			noErr(t, err)
			if res.Path != abs(w, "x/f.txt") {
				t.Errorf("Write(%q).Path = %q, want %q", p, res.Path, abs(w, "x/f.txt"))
			}
			if !strings.HasPrefix(res.Path, "/") {
				t.Errorf("Write(%q).Path = %q is not absolute", p, res.Path)
			}
		}
	})
}

func TestFileWrite_ModeAppend(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		res, err := w.Write(bg, "log/app.log", "one\n", llmfs.WriteOptions{Mode: llmfs.AppendTo})
		noErr(t, err)
		if !res.Created {
			t.Errorf("append to a new file does not report Created")
		}
		_, err = w.Write(bg, "log/app.log", "two\n", llmfs.WriteOptions{Mode: llmfs.AppendTo})
		noErr(t, err)
		if got := mustRaw(t, w, "log/app.log"); got != "one\ntwo\n" {
			t.Errorf("content %q", got)
		}
	})
}

func TestFileWrite_ModeCreate(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Write(bg, "f.txt", "first", llmfs.WriteOptions{Mode: llmfs.Create})
		noErr(t, err)
		_, err = w.Write(bg, "f.txt", "second", llmfs.WriteOptions{Mode: llmfs.Create})
		wantCode(t, err, llmfs.CodeFileAlreadyExists)
		if got := mustRaw(t, w, "f.txt"); got != "first" {
			t.Errorf("content %q after a refused create", got)
		}
		put(t, w, "d/x", "")
		_, err = w.Write(bg, "d", "second", llmfs.WriteOptions{Mode: llmfs.Create})
		if err == nil {
			t.Errorf("create over a directory succeeded")
		}
	})
}

func TestFileWrite_InvalidModeRefused(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Write(bg, "f.txt", "x", llmfs.WriteOptions{Mode: "truncate"})
		wantCode(t, err, llmfs.CodeInvalidArgument)
		if exists(w, "f.txt") {
			t.Errorf("a refused write created the file")
		}
	})
}

func TestFileWrite_DirectoryIsInvalidPath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/inner.txt", "x")
		for _, p := range []string{"d", ".", "/", abs(w, "")} {
			for _, mode := range []llmfs.WriteMode{llmfs.Overwrite, llmfs.AppendTo} {
				_, err := w.Write(bg, p, "x", llmfs.WriteOptions{Mode: mode})
				wantCode(t, err, llmfs.CodeInvalidPath)
			}
		}
		if !isDir(w, "d") || mustRaw(t, w, "d/inner.txt") != "x" {
			t.Errorf("the directory changed")
		}
		// A file where a parent directory is needed.
		put(t, w, "file", "x")
		_, err := w.Write(bg, "file/below.txt", "x", llmfs.WriteOptions{})
		wantCode(t, err, llmfs.CodeInvalidPath)
		if mustRaw(t, w, "file") != "x" {
			t.Errorf("the file in the way changed")
		}
	})
}

func TestFileWrite_ReadOnlyModeRefused(t *testing.T) {
	eachBackend(t, &llmfs.Options{Mode: llmfs.ReadOnly}, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Write(bg, "a/f.txt", "x", llmfs.WriteOptions{})
		wantCode(t, err, llmfs.CodePermissionDenied)
		if exists(w, "a") {
			t.Errorf("a refused write created its parent")
		}
	})
}

// TestFileWrite_Atomic checks that concurrent overwrites of one file leave exactly one of
// the contents, never a mix, and no temporary files.
func TestFileWrite_Atomic(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		var wg sync.WaitGroup
		contents := map[string]bool{}
		for i := range 8 {
			c := strings.Repeat(fmt.Sprint(i), 100_000)
			contents[c] = true
			wg.Go(func() {
				if _, err := w.Write(bg, "d/f.txt", c, llmfs.WriteOptions{}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if got := mustRaw(t, w, "d/f.txt"); !contents[got] {
			t.Errorf("the file holds a mix of the writes (%d bytes)", len(got))
		}
		entries, err := w.List(bg, "d")
		noErr(t, err)
		if len(entries) != 1 {
			t.Errorf("d holds %d entries, want 1 (temporary files left?): %v", len(entries), entries)
		}
	})
}
