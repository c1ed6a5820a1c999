//go:build !js && !wasip1

package tools_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// gemini replace's whitespace-forgiving fallback never writes a file the model did not ask
// for (found by a review of this round): an old_string that ends a line replaces that line
// with its newline, not beside it; it never joins or splits a word; and it does not make
// the guess the workspace's matcher refused as one.
func TestGeminiFlexNeverGuesses(t *testing.T) {
	tb, dir := geminiBox(t, map[string]string{
		"f.go":    "func f() {\n\tfoo(a, b)\n\tbar()\n}\n",
		"w.go":    "x = foobar()\n",
		"i.py":    "  a\n    b\n      c\n",
		"split.c": "int x = 1;\n",
	})
	replace := func(file, old, new string) (map[string]any, error) {
		args, _ := json.Marshal(map[string]string{"file_path": file, "old_string": old, "new_string": new})
		res, err := tb.Call(t.Context(), "replace", args)
		if err != nil {
			return nil, err
		}
		var out map[string]any
		json.Unmarshal(res, &out)
		return out, nil
	}

	// 1. A line's newline is replaced with it: no blank line appears.
	if _, err := replace("f.go", "\tfoo( a, b )\n", "\tfoo(a, c)\n"); err != nil {
		t.Fatalf("replace across whitespace: %v", err)
	}
	fileIs(t, dir, "f.go", "func f() {\n\tfoo(a, c)\n\tbar()\n}\n")

	// 2. A word is not matched inside a longer one.
	if _, err := replace("w.go", "x  = foo", "x = baz"); llmfs.CodeOf(err) != llmfs.CodePatternNotFound {
		t.Errorf("old_string ending inside a word: %v, want PATTERN_NOT_FOUND", err)
	}
	fileIs(t, dir, "w.go", "x = foobar()\n")

	// 3. Whitespace inside a word is not forgiven either.
	if _, err := replace("split.c", "in t x = 1;", "int y = 1;"); llmfs.CodeOf(err) != llmfs.CodePatternNotFound {
		t.Errorf("old_string splitting a word: %v, want PATTERN_NOT_FOUND", err)
	}
	fileIs(t, dir, "split.c", "int x = 1;\n")

	// 4. Indentation the matcher refused as a guess stays refused.
	if _, err := replace("i.py", "\ta\n\t\tb\n\t\t\t\tc\n", "\ta\n\t\tX\n\t\t\tc\n"); llmfs.CodeOf(err) != llmfs.CodePatternNotFound {
		t.Errorf("indentation refused as a guess: %v, want PATTERN_NOT_FOUND", err)
	}
	fileIs(t, dir, "i.py", "  a\n    b\n      c\n")
}

// grep_search, the name gemini models call, answers in gemini's text like its older name,
// and counts matches, not the context lines around them (found by a review).
func TestGeminiGrepSearchTextAndCount(t *testing.T) {
	tb, _ := geminiBox(t, map[string]string{"a.txt": "one\ntwo\nneedle\nthree\nfour\n"})
	res, err := tb.CallResult(t.Context(), "grep_search", json.RawMessage(`{"pattern":"needle","context":2}`))
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	json.Unmarshal(res.JSON, &out)
	if out["count"] != float64(1) {
		t.Errorf("count = %v, want 1 (one match, four context lines)", out["count"])
	}
	if strings.HasPrefix(strings.TrimSpace(res.Text), "{") || !strings.Contains(res.Text, "1 match") {
		t.Errorf("grep_search text is not gemini's:\n%s", res.Text)
	}
}
