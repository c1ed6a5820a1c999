package llmfs_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// Issue 17.4: every edit form forgives the copying mistakes models make, says how it
// matched, keeps the file's line endings and byte-order mark, and refuses an ambiguous
// tolerant match without touching the file.
func TestEditTolerantMatching(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		const content = "\uFEFFfunc f() {\r\n\tif x {\r\n\t\treturn 1\r\n\t}\r\n}\r\n"
		put(t, w, "f.go", content)
		res, err := w.Edit(bg, "f.go", "    if x {  \n        return 1\n", "    if x {\n        return 2\n", false)
		if err != nil {
			t.Fatal(err)
		}
		if res.Matched != llmfs.MatchIndent || res.Replacements != 1 {
			t.Errorf("matched %q, %d replacements; want indent, 1", res.Matched, res.Replacements)
		}
		want := "\uFEFFfunc f() {\r\n\tif x {\r\n\t\treturn 2\r\n\t}\r\n}\r\n"
		if got := mustRaw(t, w, "f.go"); got != want {
			t.Errorf("file:\n%q\nwant\n%q", got, want)
		}
		res, err = w.Edit(bg, "f.go", "     3\t\t\treturn 2\n", "     3\t\t\treturn 3\n", false)
		if err != nil || res.Matched != llmfs.MatchPrefix {
			t.Fatalf("prefix edit: %v, %+v", err, res)
		}
		res, err = w.Edit(bg, "f.go", "return 3", "return 4", false)
		if err != nil || res.Matched != llmfs.MatchExact {
			t.Fatalf("exact edit: %v, %+v", err, res)
		}

		const twice = "a:\n  x = 1\nb:\n    x = 1\n"
		put(t, w, "g.py", twice)
		_, err = w.Edit(bg, "g.py", "x = 1 \n", "x = 2\n", false)
		wantCode(t, err, llmfs.CodePatternNotUnique)
		if !strings.Contains(err.Error(), "2 places") || !strings.Contains(err.Error(), "lines 2, 4") {
			t.Errorf("the message does not say where: %v", err)
		}
		if got := mustRaw(t, w, "g.py"); got != twice {
			t.Errorf("a refused edit changed the file: %q", got)
		}
	})
}
