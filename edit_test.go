package llmfs_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/llmfs/llmfs"
)

func TestFileEdit_ReplacesExactText(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "main.go", "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n")
		res, err := w.Edit(bg, "main.go", "println(\"hi\")", "println(\"hello\")", false)
		noErr(t, err)
		if res.Replacements != 1 {
			t.Errorf("Replacements = %d", res.Replacements)
		}
		if got := mustRaw(t, w, "main.go"); got != "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n" {
			t.Errorf("content %q", got)
		}
		if !strings.Contains(res.Diff, "+\tprintln(\"hello\")") || !strings.Contains(res.Diff, "-\tprintln(\"hi\")") {
			t.Errorf("Diff = %q", res.Diff)
		}
		// Deleting text: new may be empty.
		_, err = w.Edit(bg, "main.go", "\n\n", "\n", false)
		noErr(t, err)
		if got := mustRaw(t, w, "main.go"); got != "package main\nfunc main() {\n\tprintln(\"hello\")\n}\n" {
			t.Errorf("content %q", got)
		}
	})
}

func TestFileEdit_ReturnsAbsolutePath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/f.txt", "old")
		res, err := w.Edit(bg, "./d/../d/f.txt", "old", "new", false)
		noErr(t, err)
		if res.Path != abs(w, "d/f.txt") {
			t.Errorf("Path = %q, want %q", res.Path, abs(w, "d/f.txt"))
		}
	})
}

func TestFileEdit_OldTextMustBeUnique(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		const content = "x = 1\ny = 2\nx = 1\n"
		put(t, w, "f.txt", content)
		_, err := w.Edit(bg, "f.txt", "x = 1", "x = 3", false)
		wantCode(t, err, llmfs.CodePatternNotUnique)
		if !strings.Contains(err.Error(), "2 times") || !strings.Contains(err.Error(), "1, 3") {
			t.Errorf("the message does not say where: %v", err)
		}
		if got := mustRaw(t, w, "f.txt"); got != content {
			t.Errorf("a refused edit changed the file: %q", got)
		}
	})
}

func TestFileEdit_PatternNotFound(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		const content = "func f() {\n\treturn 1\n}\n"
		put(t, w, "f.go", content)
		_, err := w.Edit(bg, "f.go", "return 2", "return 3", false)
		wantCode(t, err, llmfs.CodePatternNotFound)
		// A near miss is pointed out, never guessed (whitespace differences are
		// forgiven by the tolerant steps; see editmatch_test.go).
		_, err = w.Edit(bg, "f.go", "    return 1;", "return 3", false)
		wantCode(t, err, llmfs.CodePatternNotFound)
		if !strings.Contains(err.Error(), "line is 2") {
			t.Errorf("no hint at the similar line: %v", err)
		}
		if got := mustRaw(t, w, "f.go"); got != content {
			t.Errorf("a refused edit changed the file: %q", got)
		}
	})
}

func TestFileEdit_EmptyOldTextRefused(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "content")
		_, err := w.Edit(bg, "f.txt", "", "x", false)
		wantCode(t, err, llmfs.CodeInvalidArgument)
		_, err = w.Edit(bg, "f.txt", "", "x", true)
		wantCode(t, err, llmfs.CodeInvalidArgument)
		if got := mustRaw(t, w, "f.txt"); got != "content" {
			t.Errorf("content %q", got)
		}
	})
}

func TestFileEdit_SameOldAndNewRefused(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "content")
		_, err := w.Edit(bg, "f.txt", "content", "content", false)
		wantCode(t, err, llmfs.CodeInvalidArgument)
	})
}

func TestFileEdit_ReplaceAll(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "foo bar foo baz foo")
		res, err := w.Edit(bg, "f.txt", "foo", "qux", true)
		noErr(t, err)
		if res.Replacements != 3 || mustRaw(t, w, "f.txt") != "qux bar qux baz qux" {
			t.Errorf("Replacements %d, content %q", res.Replacements, mustRaw(t, w, "f.txt"))
		}
		_, err = w.Edit(bg, "f.txt", "foo", "x", true)
		wantCode(t, err, llmfs.CodePatternNotFound)
	})
}

func TestFileEdit_KeepsCRLFAndBOM(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "\uFEFFone\r\ntwo\r\nthree\r\n")
		_, err := w.Edit(bg, "f.txt", "one\ntwo\n", "1\n2\n", false)
		noErr(t, err)
		if got := mustRaw(t, w, "f.txt"); got != "\uFEFF1\r\n2\r\nthree\r\n" {
			t.Errorf("content %q", got)
		}
		_, err = w.Edit(bg, "f.txt", "three", "3", false)
		noErr(t, err)
		if got := mustRaw(t, w, "f.txt"); got != "\uFEFF1\r\n2\r\n3\r\n" {
			t.Errorf("content %q", got)
		}
	})
}

func TestFileEdit_TargetMustBeTextFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Edit(bg, "missing.txt", "a", "b", false)
		wantCode(t, err, llmfs.CodeFileNotFound)
		put(t, w, "d/f", "a")
		_, err = w.Edit(bg, "d", "a", "b", false)
		wantCode(t, err, llmfs.CodeInvalidPath)
		put(t, w, "bin", "a\x00b")
		_, err = w.Edit(bg, "bin", "a", "b", false)
		wantCode(t, err, llmfs.CodeBinaryFile)
	})
	eachBackend(t, &llmfs.Options{Limits: llmfs.Limits{MaxEditBytes: 10}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "big", "aaaaaaaaaaaaaaaaaaaa")
		_, err := w.Edit(bg, "big", "a", "b", true)
		wantCode(t, err, llmfs.CodeFileTooLarge)
	})
}

func TestFileEdit_ManyIsAllOrNothing(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "alpha beta gamma")
		_, err := w.EditMany(bg, "f.txt", []llmfs.Replacement{{Old: "alpha", New: "A"}, {Old: "delta", New: "D"}})
		wantCode(t, err, llmfs.CodePatternNotFound)
		if got := mustRaw(t, w, "f.txt"); got != "alpha beta gamma" {
			t.Errorf("a failed EditMany changed the file: %q", got)
		}
		res, err := w.EditMany(bg, "f.txt", []llmfs.Replacement{{Old: "alpha", New: "A"}, {Old: "A beta", New: "AB"}})
		noErr(t, err)
		if got := mustRaw(t, w, "f.txt"); got != "AB gamma" || res.Replacements != 2 {
			t.Errorf("EditMany: %q, %d replacements", got, res.Replacements)
		}
		_, err = w.EditMany(bg, "f.txt", nil)
		wantCode(t, err, llmfs.CodeInvalidArgument)
	})
}

// TestFileEdit_ConcurrentEditsLoseNothing races edits of distinct words in one file: each
// edit either lands or fails with FILE_CHANGED, and every one that lands is in the file.
func TestFileEdit_ConcurrentEditsLoseNothing(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		var words []string
		for i := range 16 {
			words = append(words, fmt.Sprintf("word%02d", i))
		}
		put(t, w, "f.txt", strings.Join(words, "\n"))
		var wg sync.WaitGroup
		var mu sync.Mutex
		landed := map[int]bool{}
		for i := range words {
			wg.Go(func() {
				for range 50 {
					_, err := w.Edit(bg, "f.txt", words[i], strings.ToUpper(words[i]), false)
					if err == nil {
						mu.Lock()
						landed[i] = true
						mu.Unlock()
						return
					}
					if c := llmfs.CodeOf(err); c != llmfs.CodeFileChanged {
						t.Errorf("edit %d: %v", i, err)
						return
					}
				}
			})
		}
		wg.Wait()
		got := mustRaw(t, w, "f.txt")
		for i, word := range words {
			if landed[i] != strings.Contains(got, strings.ToUpper(word)) {
				t.Errorf("edit %d landed=%v but the file says otherwise: %q", i, landed[i], got)
			}
		}
	})
}

// Issue 12.7: one replace_all turned a 100 KB file into 100 MB at 500 MB RSS, since
// MaxEditBytes bounded only the file loaded. The result is bounded too, before it is built.
func TestEditResultBounded(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		orig := strings.Repeat("x", 100_000)
		put(t, w, "f.txt", orig)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := w.Edit(bg, "f.txt", "x", strings.Repeat("y", 1000), true)
		runtime.ReadMemStats(&after)
		wantCode(t, err, llmfs.CodeFileTooLarge)
		if got := mustRaw(t, w, "f.txt"); got != orig {
			t.Errorf("a refused edit changed the file (now %d bytes)", len(got))
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Errorf("the refused edit allocated %d MB", alloc>>20)
		}
		// Several edits together count too: each is within the limit, not their sum.
		_, err = w.EditMany(bg, "f.txt", []llmfs.Replacement{
			{Old: "x", New: strings.Repeat("y", 400), ReplaceAll: true},
			{Old: "y", New: "zz", ReplaceAll: true},
		})
		wantCode(t, err, llmfs.CodeFileTooLarge)
	})
	eachBackend(t, &llmfs.Options{Limits: llmfs.Limits{MaxEditBytes: 10}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f", "abcd")
		_, err := w.Edit(bg, "f", "a", "12345678", false) // 11 bytes
		wantCode(t, err, llmfs.CodeFileTooLarge)
		_, err = w.Edit(bg, "f", "a", "1234567", false) // 10 bytes: fine
		noErr(t, err)
	})
}

// Issue 13.8: a file whose magic number says binary (here a PDF with no NUL in its first
// block) is BINARY_FILE for edits as for reads, and is left as it was.
func TestEditRefusesBinaryByMagic(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		const pdf = "%PDF-1.7\nsome text obj\n"
		put(t, w, "doc.pdf", pdf)
		_, err := w.Edit(bg, "doc.pdf", "some", "other", false)
		wantCode(t, err, llmfs.CodeBinaryFile)
		if got := mustRaw(t, w, "doc.pdf"); got != pdf {
			t.Errorf("content changed: %q", got)
		}
	})
}

// TestEditCount: issue 34, Replacement.Count refuses an edit whose old text occurs another
// number of times before anything is written (the gemini replace tool's
// expected_replacements, which once wrote the edit and took it back), and implies
// ReplaceAll above 1.
func TestEditCount(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "a a a\n")
		for _, n := range []int{1, 2, 4} {
			_, err := w.EditMany(bg, "f.txt", []llmfs.Replacement{{Old: "a", New: "b", Count: n}})
			wantCode(t, err, llmfs.CodePatternNotUnique)
		}
		if got := mustRaw(t, w, "f.txt"); got != "a a a\n" {
			t.Fatalf("a refused edit wrote %q", got)
		}
		res, err := w.EditMany(bg, "f.txt", []llmfs.Replacement{{Old: "a", New: "b", Count: 3}})
		if err != nil || res.Replacements != 3 || mustRaw(t, w, "f.txt") != "b b b\n" {
			t.Fatalf("count 3: %v, %+v, %q", err, res, mustRaw(t, w, "f.txt"))
		}
	})
}
