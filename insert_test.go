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
			if res.Replacements != 1 {
				t.Errorf("%s: %d replacements, want 1", tt.name, res.Replacements)
			}
			// An insert is taken back as any change is: by an undo through the journal.
			if w.Settings().Journaled {
				if _, err := w.History().Undo(bg, lastChange(t, w).ID); err != nil || mustRaw(t, w, "f.txt") != tt.content {
					t.Errorf("%s: undo: %v, %q", tt.name, err, mustRaw(t, w, "f.txt"))
				}
			}
		}
		put(t, w, "f.txt", "a\nb\n")
		_, err := w.Insert(bg, "f.txt", 3, "x")
		wantCode(t, err, llmfs.CodeInvalidArgument)
		// An undo of an insert whose result changed since is refused.
		if _, err := w.Insert(bg, "f.txt", 0, "x"); err != nil {
			t.Fatal(err)
		}
		if !w.Settings().Journaled {
			return
		}
		id := lastChange(t, w).ID
		put(t, w, "f.txt", "someone else\n")
		_, err = w.History().Undo(bg, id)
		wantCode(t, err, llmfs.CodeFileChanged)
		if got := mustRaw(t, w, "f.txt"); got != "someone else\n" {
			t.Errorf("a refused undo wrote %q", got)
		}
	})
}
