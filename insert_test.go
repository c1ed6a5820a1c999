package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
)

// Issue 17.1: the anthropic insert command (Workspace.Insert) puts text after a line, 0
// being the start, in the file's line endings, and refuses a line past the end.
func TestInsert(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, tt := range []struct {
			name, content string
			line          int
			text, want    string
		}{
			{"start", "a\nb\n", 0, "x", "x\na\nb\n"},
			{"middle", "a\nb\n", 1, "x\ny\n", "a\nx\ny\nb\n"},
			{"end", "a\nb\n", 2, "x", "a\nb\nx\n"},
			{"end without final newline", "a\nb", 2, "x", "a\nb\nx\n"},
			{"crlf", "a\r\nb\r\n", 1, "x\ny", "a\r\nx\r\ny\r\nb\r\n"},
			{"bom", "\uFEFFa\n", 0, "x", "\uFEFFx\na\n"},
			{"empty file", "", 0, "x", "x\n"},
		} {
			put(t, w, "f.txt", tt.content)
			res, err := w.Insert(bg, "f.txt", tt.line, tt.text)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got := mustRaw(t, w, "f.txt"); got != tt.want {
				t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
			}
			if u := res.Undo(); u == nil {
				t.Errorf("%s: no undo", tt.name)
			} else if _, err := w.RevertEdit(bg, u); err != nil || mustRaw(t, w, "f.txt") != tt.content {
				t.Errorf("%s: revert: %v, %q", tt.name, err, mustRaw(t, w, "f.txt"))
			}
		}
		put(t, w, "f.txt", "a\nb\n")
		_, err := w.Insert(bg, "f.txt", 3, "x")
		wantCode(t, err, llmfs.CodeInvalidArgument)
		// A revert of an edit whose result changed since is refused.
		res, err := w.Insert(bg, "f.txt", 0, "x")
		if err != nil {
			t.Fatal(err)
		}
		put(t, w, "f.txt", "someone else\n")
		_, err = w.RevertEdit(bg, res.Undo())
		wantCode(t, err, llmfs.CodeFileChanged)
		if got := mustRaw(t, w, "f.txt"); got != "someone else\n" {
			t.Errorf("a refused revert wrote %q", got)
		}
	})
}
