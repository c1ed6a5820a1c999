package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// dialectWith returns a toolbox of dialect d over a memory workspace holding files.
func dialectWith(t *testing.T, d tools.Dialect, files map[string]string) (*tools.Toolbox, *llmfs.Workspace) {
	t.Helper()
	ws := llmfs.New(mem.New(), nil)
	for p, s := range files {
		if _, err := ws.Write(context.Background(), p, s, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	tb, err := tools.New(ws, d)
	if err != nil {
		t.Fatal(err)
	}
	return tb, ws
}

func callArgs(tb *tools.Toolbox, name string, args map[string]any) (string, error) {
	raw, _ := json.Marshal(args)
	out, err := tb.Call(context.Background(), name, raw)
	return string(out), err
}

// Issue 32.1 (the reference MCP server's case): on "  line1\n    line2\n", agentool
// file_edit of "line1\nline2" -> "LINE1\nLINE2" kept line 1's indentation for line 2
// too. Each replaced line keeps its own file line's indentation.
func TestIssue32ToleratedIndentKeepsEachLine(t *testing.T) {
	tb, ws := dialectWith(t, tools.Agentool, map[string]string{"a.txt": "  line1\n    line2\n"})
	out, err := callArgs(tb, "file_edit", map[string]any{"path": "a.txt", "old_text": "line1\nline2", "new_text": "LINE1\nLINE2"})
	if err != nil {
		t.Fatalf("file_edit: %v", err)
	}
	if got := readFile(t, ws, "a.txt"); got != "  LINE1\n    LINE2\n" {
		t.Errorf("file %q (%s), want %q", got, out, "  LINE1\n    LINE2\n")
	}
}

// Issue 32.1 (edit benchmark): a model writing tabs in a 2-space JavaScript file with
// JSDoc comments, old text one level deep: the nested return went to 6 spaces.
func TestIssue32TabsForTwoSpacesNested(t *testing.T) {
	js := "/**\n * Serve.\n */\nasync function handle(request) {\n  const url = new URL(request.url);\n  return fetch(request);\n}\n"
	want := "/**\n * Serve.\n */\nasync function handle(request) {\n  const url = new URL(request.url);\n  if (url.pathname.startsWith('/cache')) {\n    return getCache(request);\n  }\n  return fetch(request);\n}\n"
	old := "\treturn fetch(request);\n"
	new := "\tif (url.pathname.startsWith('/cache')) {\n\t\treturn getCache(request);\n\t}\n\treturn fetch(request);\n"
	for _, c := range []struct {
		d    tools.Dialect
		tool string
		args map[string]any
	}{
		{tools.Agentool, "file_edit", map[string]any{"path": "a.js", "old_text": old, "new_text": new}},
		{tools.Anthropic, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "a.js", "old_str": old, "new_str": new}},
		{tools.Gemini, "replace", map[string]any{"file_path": "a.js", "old_string": old, "new_string": new}},
	} {
		tb, ws := dialectWith(t, c.d, map[string]string{"a.js": js})
		out, err := callArgs(tb, c.tool, c.args)
		if err != nil {
			t.Errorf("%s %s: %v", c.d, c.tool, err)
			continue
		}
		if got := readFile(t, ws, "a.js"); got != want {
			t.Errorf("%s %s: %q (%s)", c.d, c.tool, got, out)
		}
	}
}

// Issue 32.1: tabs on the model's side, spaces in the file, and old's levels at no one
// ratio to the file's: the edit is refused with a message saying so, nothing written.
func TestIssue32IndentationGuessRefused(t *testing.T) {
	text := "  a\n    b\n      c\n"
	tb, ws := dialectWith(t, tools.Agentool, map[string]string{"a.txt": text})
	_, err := callArgs(tb, "file_edit", map[string]any{"path": "a.txt", "old_text": "\ta\n\t\tb\n\t\t\t\tc\n", "new_text": "\ta\n\t\tb\n\t\t\tX\n\t\t\t\tc\n"})
	if llmfs.CodeOf(err) != llmfs.CodePatternNotFound || !strings.Contains(err.Error(), "indentation differs") {
		t.Fatalf("file_edit: %v, want PATTERN_NOT_FOUND saying the indentation differs", err)
	}
	if got := readFile(t, ws, "a.txt"); got != text {
		t.Errorf("file changed: %q", got)
	}
}

// Issue 32.4: gemini replace whose new text already carries the file's indentation was
// indented again (2 spaces became 4): old copied without the indentation (tolerated as
// indent, or found exactly after the line's indentation), new written as the file has it.
func TestIssue32IndentationNotAddedTwice(t *testing.T) {
	two := "function f() {\n  foo();\n  bar();\n}\n"
	want := "function f() {\n  foo();\n  baz();\n}\n"
	for _, c := range []struct{ text, old, new, want string }{
		{two, "foo();\nbar();", "  foo();\n  baz();", want},
		{two, "foo();\nbar();\n", "  foo();\n  baz();\n", want},
		{two, "foo();\n  bar();", "  foo();\n  baz();", want},
		{"function f() {\n  foo();\n}\n", "foo();", "  baz();", "function f() {\n  baz();\n}\n"},
		{"function f() {\n    foo();\n    bar();\n}\n", "  foo();\n  bar();", "    foo();\n    baz();", "function f() {\n    foo();\n    baz();\n}\n"},
		// New deeper than old by its own offset is still re-indented.
		{two, "foo();\nbar();", "foo();\nif (x) {\n  baz();\n}", "function f() {\n  foo();\n  if (x) {\n    baz();\n  }\n}\n"},
	} {
		tb, ws := dialectWith(t, tools.Gemini, map[string]string{"a.js": c.text})
		out, err := callArgs(tb, "replace", map[string]any{"file_path": "a.js", "old_string": c.old, "new_string": c.new})
		if err != nil {
			t.Errorf("replace %q -> %q: %v", c.old, c.new, err)
			continue
		}
		if got := readFile(t, ws, "a.js"); got != c.want {
			t.Errorf("replace %q -> %q: %q, want %q (%s)", c.old, c.new, got, c.want, out)
		}
	}
}

// Issue 32.3: gemini-cli refuses new text with an omission placeholder such as
// "// ... rest of methods ..."; written as given it replaces the real code. Every
// dialect's edit, write and patch refuses it (INVALID_ARGUMENT saying to send the complete
// text, nothing changed), unless the placeholder is already in the text it replaces.
func TestIssue32PlaceholdersRefused(t *testing.T) {
	const text = "class A {\n  one() {}\n  two() {}\n}\n"
	full := map[string]string{"a.js": text}
	withPlaceholder := "class A {\n  one() { return 1; }\n  // ... rest of methods ...\n}\n"
	for _, c := range []struct {
		d    tools.Dialect
		tool string
		args map[string]any
	}{
		{tools.Gemini, "replace", map[string]any{"file_path": "a.js", "old_string": text, "new_string": withPlaceholder}},
		{tools.Gemini, "write_file", map[string]any{"file_path": "a.js", "content": withPlaceholder}},
		{tools.Gemini, "write_file", map[string]any{"file_path": "new.js", "content": withPlaceholder}},
		{tools.Agentool, "file_edit", map[string]any{"path": "a.js", "old_text": "  two() {}\n", "new_text": "  # ... existing code ...\n"}},
		{tools.Agentool, "file_edit", map[string]any{"path": "a.js", "edits": []map[string]any{{"old_text": "one", "new_text": "uno"}, {"old_text": "  two() {}\n", "new_text": "  /* ... */\n"}}}},
		{tools.Agentool, "file_write", map[string]any{"path": "a.js", "content": withPlaceholder}},
		{tools.Agentool, "patch", map[string]any{"patch": "a.js\n<<<<<<< SEARCH\n  two() {}\n=======\n  // ... rest of methods ...\n>>>>>>> REPLACE\n"}},
		{tools.RTC, "edit", map[string]any{"path": "a.js", "old_string": "  two() {}\n", "new_string": "  // ... remaining methods unchanged ...\n"}},
		{tools.RTC, "write", map[string]any{"path": "b.html", "content": "<ul>\n<!-- ... -->\n</ul>\n"}},
		{tools.Anthropic, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "a.js", "old_str": "  two() {}\n", "new_str": "  // ... rest of methods ...\n"}},
		{tools.Anthropic, "str_replace_based_edit_tool", map[string]any{"command": "create", "path": "c.js", "file_text": withPlaceholder}},
		{tools.Anthropic, "str_replace_based_edit_tool", map[string]any{"command": "insert", "path": "a.js", "insert_line": 2, "insert_text": "  // ... other methods ...\n"}},
		{tools.Codex, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: a.js\n@@\n   one() {}\n-  two() {}\n+  // ... rest of methods ...\n }\n*** End Patch\n"}},
		{tools.Codex, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Add File: d.js\n+x();\n+// ... rest of file ...\n*** End Patch\n"}},
	} {
		tb, ws := dialectWith(t, c.d, full)
		if c.d == tools.RTC || c.d == tools.Anthropic {
			readFile(t, ws, "a.js")
		}
		out, err := callArgs(tb, c.tool, c.args)
		if llmfs.CodeOf(err) != llmfs.CodeInvalidArgument || !strings.Contains(err.Error(), "send the complete text") {
			t.Errorf("%s %s: %s, %v; want INVALID_ARGUMENT saying to send the complete text", c.d, c.tool, out, err)
		}
		if got := readFile(t, ws, "a.js"); got != text {
			t.Errorf("%s %s: a.js changed: %q", c.d, c.tool, got)
		}
		for _, p := range []string{"new.js", "b.html", "c.js", "d.js"} {
			if _, err := ws.Read(context.Background(), p, llmfs.ReadOptions{}); err == nil {
				t.Errorf("%s %s: %s was created", c.d, c.tool, p)
			}
		}
	}
}

// A file that really holds a placeholder comment can still be edited and rewritten with it.
func TestIssue32PlaceholderAlreadyInFile(t *testing.T) {
	const text = "def f():\n    # ... existing code ...\n    return 1\n"
	tb, ws := dialectWith(t, tools.Gemini, map[string]string{"a.py": text})
	if _, err := callArgs(tb, "replace", map[string]any{"file_path": "a.py", "old_string": "    # ... existing code ...\n    return 1\n", "new_string": "    # ... existing code ...\n    return 2\n"}); err != nil {
		t.Fatalf("replace: %v", err)
	}
	again := "def f():\n    # ... existing code ...\n    return 3\n"
	if _, err := callArgs(tb, "write_file", map[string]any{"file_path": "a.py", "content": again}); err != nil {
		t.Fatalf("write_file: %v", err)
	}
	if got := readFile(t, ws, "a.py"); got != again {
		t.Errorf("a.py = %q", got)
	}
}

// Issue 32.9: a copied line-number prefix names the line, so it picks one of several
// equal places instead of answering "not unique"; a number that names none of them
// still does.
func TestIssue32LineNumberPicksPlace(t *testing.T) {
	const text = "func a() {\n\treturn nil\n}\n\nfunc b() {\n\treturn nil\n}\n"
	for _, c := range []struct {
		d         tools.Dialect
		tool      string
		args      map[string]any
		want      string
		notUnique bool
	}{
		{tools.Agentool, "file_edit", map[string]any{"path": "a.go", "old_text": "     6\t\treturn nil", "new_text": "     6\t\treturn err"},
			strings.Replace(text, "}\n\nfunc b() {\n\treturn nil", "}\n\nfunc b() {\n\treturn err", 1), false},
		{tools.Gemini, "replace", map[string]any{"file_path": "a.go", "old_string": "L2: \treturn nil\nL3: }", "new_string": "L2: \treturn err\nL3: }"},
			strings.Replace(text, "return nil", "return err", 1), false},
		{tools.Agentool, "file_edit", map[string]any{"path": "a.go", "old_text": "     4\t\treturn nil", "new_text": "     4\t\treturn err"}, text, true},
	} {
		tb, ws := dialectWith(t, c.d, map[string]string{"a.go": text})
		out, err := callArgs(tb, c.tool, c.args)
		switch {
		case c.notUnique && llmfs.CodeOf(err) != llmfs.CodePatternNotUnique:
			t.Errorf("%s %s: %s, %v; want PATTERN_NOT_UNIQUE", c.d, c.tool, out, err)
		case !c.notUnique && err != nil:
			t.Errorf("%s %s: %v", c.d, c.tool, err)
		}
		if got := readFile(t, ws, "a.go"); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.d, c.tool, got, c.want)
		}
	}
}

// Issue 32.9: an old text with wrong indentation that ends inside a line is matched like
// one ending at a line end, and a not-found message never says to fix what is forgiven.
func TestIssue32MidLineAndMessage(t *testing.T) {
	const py = "def f():\n    if x:\n        return 1\n"
	tb, ws := dialectWith(t, tools.Agentool, map[string]string{"a.py": py})
	if _, err := callArgs(tb, "file_edit", map[string]any{"path": "a.py", "old_text": "  if x:\n      return", "new_text": "  if x:\n      yield"}); err != nil {
		t.Fatalf("file_edit: %v", err)
	}
	if got := readFile(t, ws, "a.py"); got != "def f():\n    if x:\n        yield 1\n" {
		t.Errorf("a.py = %q", got)
	}
	_, err := callArgs(tb, "file_edit", map[string]any{"path": "a.py", "old_text": "  if x:\n      returns", "new_text": "  if y:\n"})
	if llmfs.CodeOf(err) != llmfs.CodePatternNotFound {
		t.Fatalf("file_edit: %v, want PATTERN_NOT_FOUND", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "differs from its first line only in whitespace") || strings.Contains(msg, "including whitespace and indentation") ||
		!strings.Contains(msg, "matches its first line but for indentation, which is forgiven, so a later line differs") {
		t.Errorf("message contradicts the tolerant match: %s", msg)
	}
}
