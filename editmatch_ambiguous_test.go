package llmfs_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// Issue 17.4: at every tolerant level (trailing whitespace, indentation, typographic
// punctuation, copied line-number prefixes) an old text that the level matches in two
// places is refused, by an edit and by a patch alike, with PATTERN_NOT_UNIQUE naming the
// level, and the file is left as it was. A tolerant step never picks one of several,
// unless a copied line number names one of them (issue 32.9).
func TestTolerantAmbiguousRefused(t *testing.T) {
	type test struct {
		level, text, old, new string
		says                  string // what the edit's message says it ignored
	}
	tests := []test{
		{"whitespace", "x  \ny\nx\t\ny\n", "x\ny\n", "x\nz\n", "ignoring trailing whitespace"},
		{"indent", "a:\n  x = 1\nb:\n    x = 1\n", "\tx = 1\n", "\tx = 2\n", "ignoring indentation"},
		{"unicode", "s = 'a - b'\n  s = 'a - b'\n", "s = \u2018a \u2014 b\u2019\n", "s = 'c'\n", "ignoring indentation and typographic punctuation"},
		// Numbers that name neither place (issue 32.9: one that names a place picks it).
		{"prefix", "x()\ny()\nx()\ny()\n", "     7\tx()\n     8\ty()\n", "     7\tx()\n     8\tz()\n", "ignoring copied line-number prefixes"},
	}
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, tt := range tests {
			put(t, w, "f.txt", tt.text)
			_, err := w.Edit(bg, "f.txt", tt.old, tt.new, false)
			if llmfs.CodeOf(err) != llmfs.CodePatternNotUnique || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "2 places") {
				t.Errorf("%s: Edit: %v; want PATTERN_NOT_UNIQUE %s, 2 places", tt.level, err, tt.says)
			}
			block := "<<<<<<< SEARCH\n" + strings.TrimSuffix(tt.old, "\n") + "\n=======\n" + strings.TrimSuffix(tt.new, "\n") + "\n>>>>>>> REPLACE\n"
			_, err = w.Patch(bg, block, llmfs.PatchOptions{Path: "f.txt"})
			if llmfs.CodeOf(err) != llmfs.CodePatternNotUnique || !strings.Contains(err.Error(), "ignoring "+tt.level) {
				t.Errorf("%s: Patch: %v; want PATTERN_NOT_UNIQUE ignoring %s", tt.level, err, tt.level)
			}
			if got := mustRaw(t, w, "f.txt"); got != tt.text {
				t.Errorf("%s: a refused edit changed the file: %q", tt.level, got)
			}
		}
	})
}
