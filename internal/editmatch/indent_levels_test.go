package editmatch

import (
	"errors"
	"strings"
	"testing"
)

// Issue 32.1: the re-indentation must hold at every level, or the edit is refused.
func TestReindentEveryLevel(t *testing.T) {
	// A JavaScript file indented by 2 with JSDoc comments, whose " * " lines (3 spaces
	// at 2-space depth) once made its unit look like 4: a model's tabs, one level in
	// old, put the nested return at 6 spaces.
	js := "/**\n * Handle.\n */\nasync function handle(request) {\n  /**\n   * The URL.\n   */\n  const url = new URL(request.url);\n  return fetch(request);\n}\n"
	tests := []struct {
		name, text, old, new, want string
	}{
		{
			name: "tabs for 2 spaces, one level in old",
			text: js,
			old:  "\treturn fetch(request);\n",
			new:  "\tif (url.pathname === '/c') {\n\t\treturn getCache(request);\n\t}\n\treturn fetch(request);\n",
			want: "/**\n * Handle.\n */\nasync function handle(request) {\n  /**\n   * The URL.\n   */\n  const url = new URL(request.url);\n  if (url.pathname === '/c') {\n    return getCache(request);\n  }\n  return fetch(request);\n}\n",
		},
		{
			// The reference MCP server's case: old's lines all at the margin, the file's at
			// 2 and 4; each replaced line keeps its own file line's indentation.
			name: "old flattened, file lines keep their own depth",
			text: "  line1\n    line2\n",
			old:  "line1\nline2",
			new:  "LINE1\nLINE2",
			want: "  LINE1\n    LINE2\n",
		},
	}
	for _, tt := range tests {
		r, err := Find(tt.text, tt.old, tt.new)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := r.Apply(tt.text); got != tt.want || r.Step != Indent {
			t.Errorf("%s: %q (%s), want %q", tt.name, got, r.Step, tt.want)
		}
	}
}

// Tabs in the model's text, spaces in the file, and old's levels at no one ratio to the
// file's: a new line at a depth old does not have could go anywhere, so Find refuses.
func TestReindentRefusesGuess(t *testing.T) {
	text := "  a\n    b\n      c\n"
	_, err := Find(text, "\ta\n\t\tb\n\t\t\t\tc\n", "\ta\n\t\tb\n\t\t\tX\n\t\t\t\tc\n")
	if !errors.Is(err, ErrIndentation) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("Find: %v, want ErrIndentation", err)
	}
	// The same old with new lines only at old's own depths is placed line by line.
	r, err := Find(text, "\ta\n\t\tb\n\t\t\t\tc\n", "\ta\n\t\tB\n\t\t\t\tc\n")
	if err != nil || r.Apply(text) != "  a\n    B\n      c\n" {
		t.Fatalf("Find: %q, %v", r.Apply(text), err)
	}
}

func TestSpaceUnit(t *testing.T) {
	for _, tt := range []struct {
		text string
		want int
	}{
		{"a\n  b\n    c\n   * doc\n", 2},
		{"a\n    b\n        c\n", 4},
		{"a\n        b\n", 8},
		{"x\n   y\n", 3},
		{"  a\n", 2},
	} {
		if got := spaceUnit(tt.text); got != tt.want {
			t.Errorf("spaceUnit(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// Issue 32.9: an old text with wrong indentation that ends inside a line matches as one
// that ends at a line end does; the rest of the file's line stays.
func TestMidLineEndWithWrongIndent(t *testing.T) {
	py := "def f():\n    if x:\n        return 1\n"
	for _, old := range []string{"  if x:\n      return", "if x:\n    return", "    if x:\n      return"} {
		r, err := Find(py, old, strings.ReplaceAll(old, "return", "yield"))
		if err != nil {
			t.Errorf("Find(%q): %v", old, err)
			continue
		}
		if got := r.Apply(py); got != "def f():\n    if x:\n        yield 1\n" {
			t.Errorf("Find(%q): %q", old, got)
		}
	}
	// Ending inside a line is no licence to match a line that merely starts the same way twice.
	_, err := Find("a:\n  return 1\nb:\n  return 2\n", "a:\n    return", "a:\n    yield")
	if err != nil {
		t.Errorf("unique window: %v", err)
	}
	var amb *Ambiguous
	if _, err := Find("a:\n  return 1\na:\n  return 2\n", "a:\n    return", "a:\n    yield"); !errors.As(err, &amb) {
		t.Errorf("two windows: %v, want ambiguous", err)
	}
}

// editbench "tabs for spaces" (web/static/llmfs.js): a JSDoc comment added with a tab
// and a space before each " * " line kept its level but lost the alignment space.
func TestReindentKeepsAlignment(t *testing.T) {
	text := "class A {\n  a() {}\n  b() {}\n}\n"
	r, err := Find(text, "\ta() {}\n\tb() {}\n", "\ta() {}\n\t/**\n\t * B.\n\t */\n\tb() {}\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Apply(text), "class A {\n  a() {}\n  /**\n   * B.\n   */\n  b() {}\n}\n"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
