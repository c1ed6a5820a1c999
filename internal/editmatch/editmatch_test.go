package editmatch

import (
	"errors"
	"strings"
	"testing"
)

// Issue 17.4: edits survive the mistakes models make (trailing spaces, shifted or
// re-tabbed indentation, smart quotes, copied line numbers) and refuse every ambiguous case.
func TestFind(t *testing.T) {
	goTabs := "func f() {\n\tif x {\n\t\treturn 1\n\t}\n\treturn 2\n}\n"
	py := "def f():\n    if x:\n        return 1\n    return 2\n"
	tests := []struct {
		name, text, old, new string
		want                 string // the text after the edit; empty: an error
		step                 Step
		ambiguous            Step // non-empty: Find must refuse, ambiguous at this step
	}{
		{name: "exact", text: "a\nb\nc\n", old: "b", new: "B", want: "a\nB\nc\n", step: Exact},
		{name: "exact mid-line", text: "x := foo(1)\n", old: "foo(1)", new: "bar(2)", want: "x := bar(2)\n", step: Exact},
		{name: "exact crlf", text: "a\r\nb\r\nc\r\n", old: "a\nb\n", new: "A\nB\n", want: "A\r\nB\r\nc\r\n", step: Exact},
		{name: "exact ambiguous", text: "a\nb\na\n", old: "a", new: "A", ambiguous: Exact},

		{name: "trailing spaces in old", text: "one\ntwo\nthree\n", old: "one  \ntwo \n", new: "one  \n2 \n", want: "one\n2\nthree\n", step: Whitespace},
		{name: "trailing spaces in file", text: "one  \ntwo\t\nthree\n", old: "one\ntwo\n", new: "one\nTWO\n", want: "one  \nTWO\nthree\n", step: Whitespace},
		{name: "missing final newline in file", text: "a\nlast", old: "a\nlast\n", new: "a\nLAST\n", want: "a\nLAST", step: Whitespace},
		{name: "crlf whitespace", text: "one\r\ntwo\r\n", old: "one \ntwo\n", new: "one\nzwei\n", want: "one\r\nzwei\r\n", step: Whitespace},
		{name: "whitespace ambiguous", text: "x\ny\nx\ny\n", old: "x \ny \n", new: "z\n", ambiguous: Whitespace},
		{name: "whitespace ambiguous, spaces in the file", text: "x  \nx\t\n", old: "x\n", new: "z\n", ambiguous: Whitespace},
		{name: "whitespace ambiguous, missing final newline", text: "end \nend", old: "end\n", new: "END\n", ambiguous: Whitespace},

		{name: "indent shifted out", text: py, old: "if x:\n    return 1\n", new: "if x:\n    return 10\n", want: strings.Replace(py, "return 1\n", "return 10\n", 1), step: Indent},
		{name: "indent shifted in", text: py, old: "        if x:\n            return 1\n", new: "        if x:\n            return 1\n        log()\n", want: "def f():\n    if x:\n        return 1\n    log()\n    return 2\n", step: Indent},
		{name: "spaces for tabs", text: goTabs, old: "    if x {\n        return 1\n    }\n", new: "    if x {\n        y()\n        return 1\n    }\n", want: "func f() {\n\tif x {\n\t\ty()\n\t\treturn 1\n\t}\n\treturn 2\n}\n", step: Indent},
		{name: "two spaces for tabs", text: goTabs, old: "  if x {\n    return 1\n  }\n", new: "  if x {\n    return 3\n  }\n", want: strings.Replace(goTabs, "return 1", "return 3", 1), step: Indent},
		{name: "tabs for spaces", text: py, old: "\tif x:\n\t\treturn 1\n", new: "\tif x:\n\t\treturn 5\n", want: strings.Replace(py, "return 1", "return 5", 1), step: Indent},
		{name: "indent one line", text: py, old: "return 2", new: "return 3", want: strings.Replace(py, "return 2", "return 3", 1), step: Exact},
		{name: "indent single line", text: py, old: "  return 2\n", new: "  return 3\n", want: strings.Replace(py, "return 2", "return 3", 1), step: Exact},
		{name: "indent ambiguous", text: "a:\n  x = 1\nb:\n    x = 1\n", old: "\tx = 1\n", new: "\tx = 2\n", ambiguous: Indent},
		{name: "exact ambiguous mid-line", text: "a:\n  x = 1\nb:\n    x = 1\n", old: "x = 1\n", new: "x = 2\n", ambiguous: Exact},
		{name: "indent ambiguous, relative depths decide", text: "if a:\n    x = 1\n    y\nif b:\n    x = 1\n        y\n", old: "  x = 1\n      y\n", new: "  x = 2\n      y\n", want: "if a:\n    x = 1\n    y\nif b:\n    x = 2\n        y\n", step: Indent},
		{name: "indent ambiguous, tabs and spaces", text: "\tx = 1\n        x = 1\n", old: "\t\tx = 1\n", new: "  x = 2\n", ambiguous: Indent},
		{name: "indent ambiguous, relative depths too", text: "if a:\n    x = 1\n    y\nif b:\n    x = 1\n    y\n", old: "  x = 1\n  y\n", new: "  x = 2\n  y\n", ambiguous: Indent},
		{name: "indent new block deeper", text: py, old: "  return 2\n", new: "  if y:\n      return 3\n  return 2\n", want: "def f():\n    if x:\n        return 1\n    if y:\n        return 3\n    return 2\n", step: Indent},

		{name: "smart quotes in old", text: "say(\"hi\")\nsay('yo')\n", old: "say(\u201chi\u201d)\n", new: "say(\u201chello\u201d)\n", want: "say(\"hello\")\nsay('yo')\n", step: Unicode},
		{name: "smart quotes in file", text: "s := \u201chi\u201d\nt\n", old: "s := \"hi\"\nt\n", new: "s := \"hi\"\nu\n", want: "s := \u201chi\u201d\nu\n", step: Unicode},
		{name: "dashes and nbsp", text: "a - b\nx\u00a0y\n", old: "a \u2014 b\nx y\n", new: "a - b\nx y\n", want: "a - b\nx\u00a0y\n", step: Unicode},
		{name: "unicode ambiguous", text: "\"q\"\n'q'\n\"q\"\n", old: "\u201cq\u201d ", new: "x", ambiguous: Unicode},
		{name: "unicode ambiguous dashes", text: "a - b\nc\na - b\n", old: "a \u2013 b\n", new: "a + b\n", ambiguous: Unicode},
		{name: "unicode ambiguous spaces and quotes", text: "  say('x y')\nsay('x y')\n", old: "say(\u2018x\u00a0y\u2019)\n", new: "say('z')\n", ambiguous: Unicode},

		{name: "rtc prefixes", text: py, old: "     2\t    if x:\n     3\t        return 1\n", new: "     2\t    if x:\n     3\t        return 9\n", want: strings.Replace(py, "return 1", "return 9", 1), step: Prefix},
		{name: "claude prefixes", text: py, old: "     4→    return 2", new: "     4→    return 0", want: strings.Replace(py, "return 2", "return 0", 1), step: Prefix},
		{name: "codex prefixes", text: py, old: "L3:         return 1\nL4:     return 2\n", new: "L3:         return 1\n        more()\nL4:     return 2\n", want: "def f():\n    if x:\n        return 1\n        more()\n    return 2\n", step: Prefix},
		{name: "prefixes with blank line", text: "a\n\nb\n", old: "     1\ta\n     2\t\n     3\tb\n", new: "     1\tA\n     2\t\n     3\tB\n", want: "A\n\nB\n", step: Prefix},
		{name: "prefixes not consecutive", text: py, old: "     2\t    if x:\n     5\t        return 1\n", new: "z", want: ""},
		{name: "prefix ambiguous", text: "x\nx\n", old: "     9\tx\n", new: "y\n", ambiguous: Prefix},
		// Issue 32.9: the copied number names the line, so it picks one of equal places.
		{name: "prefix picks the numbered place, codex form", text: "x\ny\nx\ny\n", old: "L3: x\nL4: y\n", new: "L3: x\nL4: z\n", want: "x\ny\nx\nz\n", step: Prefix},
		{name: "prefix picks the numbered place, arrow form and indent", text: "if a {\n\tx()\n}\nif b {\n        x()\n}\n", old: "     5\u2192  x()\n", new: "     5\u2192  y()\n", want: "if a {\n\tx()\n}\nif b {\n        y()\n}\n", step: Indent},
		{name: "prefix ambiguous, codex form", text: "x\ny\nx\ny\n", old: "L7: x\nL8: y\n", new: "L7: x\nL8: z\n", ambiguous: Prefix},
		{name: "prefix ambiguous, arrow form and indent", text: "if a {\n\tx()\n}\nif b {\n        x()\n}\n", old: "     3\u2192  x()\n", new: "     3\u2192  y()\n", ambiguous: Prefix},

		{name: "not found", text: py, old: "return 7", new: "x", want: ""},
		{name: "blank old", text: "a\n\n\nb\n", old: "  \n", new: "x", want: ""},
		{name: "no distance guessing", text: "func main() {}\n", old: "func mian() {}\n", new: "x", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Find(tt.text, tt.old, tt.new)
			var a *Ambiguous
			switch {
			case tt.ambiguous != "":
				if !errors.As(err, &a) {
					t.Fatalf("Find: %v, %+v; want *Ambiguous", err, r)
				}
				if a.Step != tt.ambiguous || a.Count < 2 || len(a.Lines) < 2 {
					t.Errorf("ambiguous %+v, want at step %s with the places", a, tt.ambiguous)
				}
				return
			case tt.want == "":
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("Find: %v, %+v; want ErrNotFound", err, r)
				}
				return
			case err != nil:
				t.Fatalf("Find: %v", err)
			}
			if got := r.Apply(tt.text); got != tt.want {
				t.Errorf("result:\n%q\nwant:\n%q", got, tt.want)
			}
			if r.Step != tt.step {
				t.Errorf("step %s, want %s", r.Step, tt.step)
			}
		})
	}
}

// A looser step never hides an ambiguity: once a step matches twice, Find refuses even
// though a later step would find something else.
func TestFindAmbiguityStops(t *testing.T) {
	text := "  x()\n    x()\n"
	_, err := Find(text, "x() \n", "y()\n")
	var a *Ambiguous
	if !errors.As(err, &a) || a.Step != Indent || a.Count != 2 || len(a.Lines) != 2 || a.Lines[0] != 1 || a.Lines[1] != 2 {
		t.Fatalf("Find: %v (%+v), want ambiguous at indent, lines 1 and 2", err, a)
	}
}

// The window search is linear: a file of a million identical lines and an old text that
// almost matches everywhere cost one pass, not lines × window.
func TestFindRepetitiveFileLinear(t *testing.T) {
	text := strings.Repeat("a\n", 200000)
	old := strings.Repeat("a \n", 500) + "b\n"
	if _, err := Find(text, old, "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Find: %v", err)
	}
}

func FuzzFind(f *testing.F) {
	f.Add("a\n  b\n\tc\n", " b \n", "B\n")
	f.Add("x\r\ny\r\n", "     1\tx\n", "z")
	f.Fuzz(func(t *testing.T, text, old, new string) {
		r, err := Find(text, old, new)
		if err != nil {
			return
		}
		if r.Start < 0 || r.End > len(text) || r.Start > r.End {
			t.Fatalf("bad range %d:%d of %d", r.Start, r.End, len(text))
		}
		_ = r.Apply(text)
	})
}

// A model whose old text gets some depths wrong: a new line at the depth of an old line
// follows that line to the file's depth; one at a depth the file uses stays there.
func TestReindentInconsistentOld(t *testing.T) {
	text := "def f():\n    return 1\n\ndef g():\n    return 2\n"
	for _, tt := range []struct{ old, new, want string }{
		// The model indents by 2 in both old and new: its 2 is the file's 4.
		{"def f():\n  return 1\n", "def f():\n  return 0\n", "def f():\n    return 0\n\ndef g():\n    return 2\n"},
		// Old wrong (2), new right (4).
		{"def f():\n  return 1\n", "def f():\n    return 0\n", "def f():\n    return 0\n\ndef g():\n    return 2\n"},
	} {
		r, err := Find(text, tt.old, tt.new)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Apply(text); got != tt.want || r.Step != Indent {
			t.Errorf("Find(%q, %q): %q (%s), want %q", tt.old, tt.new, got, r.Step, tt.want)
		}
	}
}

// Review: after stripping copied line-number prefixes, the old text was looked up as a
// substring anywhere, so "     2\tbar" matched the "bar" inside "foobar()" on line 1 and
// edited the middle of that line. A numbered line starts a line.
func TestPrefixMatchStartsAtALine(t *testing.T) {
	text := "foobar()\nother\n"
	r, err := Find(text, "     2\tbar", "     2\tbaz")
	if err == nil {
		t.Fatalf("matched at %d..%d (%s): %q", r.Start, r.End, r.Step, r.Apply(text))
	}
	text = "x := foobar()\nbar\n"
	r, err = Find(text, "     2\tbar", "     2\tbaz")
	if err != nil || r.Apply(text) != "x := foobar()\nbaz\n" {
		t.Fatalf("Find = %q, %v", r.Apply(text), err)
	}
}

// New text that is old with the line's indentation in front asks for that indentation to
// be added: widening old to the whole line would make the edit change nothing while
// reporting one replacement (found by a review).
func TestWidenToIndentNotANoOp(t *testing.T) {
	text := "if a:\n  x = 1\n  y = 2\n"
	if got := WidenToIndent(text, "y = 2", "  y = 2"); got != "y = 2" {
		t.Errorf("WidenToIndent = %q, want old as given", got)
	}
	if got := WidenToIndent(text, "y = 2", "  z = 3"); got != "  y = 2" {
		t.Errorf("WidenToIndent of a real change = %q, want the line start included", got)
	}
}
