package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// stressTail is how store/sql/stress_test.go ended before 059e88b (with a stray blank
// line) and before ebf8437 (with a leftover var): the two files of the two wrong edits
// bench/editbench counted under "no final newline".
const (
	stressTailBlank = "func isAny(err error, targets []error) bool {\n\tfor _, t := range targets {\n\t\tif errors.Is(err, t) {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n\n"
	stressTailVar   = "func isAny(err error, targets []error) bool {\n\treturn false\n}\n\nvar _ = fmt.Sprint\n"
)

// Issue 17.7 (editbench, "no final newline", store/sql/stress_test.go:89): the edit drops
// the file's last, blank line: old "\treturn false\n}\n\n", new "\treturn false\n}\n".
// Without its final newline old is "\treturn false\n}\n" and new "\treturn false\n}",
// which as lines (a SEARCH/REPLACE block, a V4A chunk) are the same two lines: the hunk
// changes nothing. The patch used to succeed, change nothing and report "files": null (so
// the model believed the edit made, and the result broke its output schema); a hunk that
// changes nothing is now refused, and the file left as it was.
func TestEditbenchNoOpHunkRefused(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		d         tools.Dialect
		tool, arg string
		text      string
	}{
		{tools.Agentool, "patch", "patch", "a.go\n<<<<<<< SEARCH\n\treturn false\n}\n=======\n\treturn false\n}\n>>>>>>> REPLACE\n"},
		{tools.Codex, "apply_patch", "input", "*** Begin Patch\n*** Update File: a.go\n@@\n \treturn false\n }\n*** End Patch\n"},
		{tools.Agentool, "patch", "patch", "--- a/a.go\n+++ b/a.go\n@@ -7,2 +7,2 @@\n \treturn false\n }\n"},
	} {
		ws := llmfs.New(mem.New(), nil)
		if _, err := ws.Write(ctx, "a.go", stressTailBlank, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		tb, err := tools.New(ws, c.d)
		if err != nil {
			t.Fatal(err)
		}
		args, _ := json.Marshal(map[string]string{c.arg: c.text})
		out, err := tb.Call(ctx, c.tool, args)
		if llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
			t.Errorf("%s %s: %s, %v; want INVALID_ARGUMENT (the hunk changes nothing)", c.d, c.tool, out, err)
		}
		if got := readFile(t, ws, "a.go"); got != stressTailBlank {
			t.Errorf("%s %s: the file changed: %q", c.d, c.tool, got)
		}
	}
}

// Issue 17.7 (editbench, "no final newline", store/sql/stress_test.go:91): the edit removes
// "var _ = fmt.Sprint" and keeps the blank line before it: old "}\n\nvar _ = fmt.Sprint\n",
// new "}\n\n". Without the final newline, new is "}\n": as text, the file's final newline
// still follows it and the edit comes out right; as lines, new is the one line "}", so
// the line forms remove the blank line too. That is the hunk as written, matched exactly:
// what exact matching makes of it, not a tolerant step's guess. editbench now counts it
// "as exact" (from matched), where it compared only the text form.
func TestEditbenchDroppedBlankLineIsExact(t *testing.T) {
	ctx := context.Background()
	want := "func isAny(err error, targets []error) bool {\n\treturn false\n}\n"
	for _, c := range []struct {
		d         tools.Dialect
		tool, arg string
		text      string
	}{
		{tools.Agentool, "patch", "patch", "a.go\n<<<<<<< SEARCH\n}\n\nvar _ = fmt.Sprint\n=======\n}\n>>>>>>> REPLACE\n"},
		{tools.Codex, "apply_patch", "input", "*** Begin Patch\n*** Update File: a.go\n@@\n }\n-\n-var _ = fmt.Sprint\n*** End Patch\n"},
	} {
		ws := llmfs.New(mem.New(), nil)
		if _, err := ws.Write(ctx, "a.go", stressTailVar, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		tb, _ := tools.New(ws, c.d)
		args, _ := json.Marshal(map[string]string{c.arg: c.text})
		out, err := tb.Call(ctx, c.tool, args)
		if err != nil {
			t.Fatalf("%s %s: %v", c.d, c.tool, err)
		}
		var res struct {
			Files []struct{ Matched []string }
		}
		json.Unmarshal(out, &res)
		if got := readFile(t, ws, "a.go"); got != want || len(res.Files) != 1 || len(res.Files[0].Matched) != 1 || res.Files[0].Matched[0] != "exact" {
			t.Errorf("%s %s: %s\nfile %q", c.d, c.tool, out, got)
		}
	}
	// The text form keeps the blank line: the file's final newline follows new.
	ws := llmfs.New(mem.New(), nil)
	ws.Write(ctx, "a.go", stressTailVar, llmfs.WriteOptions{})
	tb, _ := tools.New(ws, tools.Agentool)
	if _, err := tb.Call(ctx, "file_edit", json.RawMessage(`{"path":"a.go","old_text":"}\n\nvar _ = fmt.Sprint","new_text":"}\n"}`)); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, ws, "a.go"); got != want+"\n" {
		t.Errorf("file_edit: %q", got)
	}
}

// A patch that leaves every file as it was (adding a file with the content it has)
// reports "files": [], never null, as its output schema says.
func TestPatchNothingChangedFilesEmpty(t *testing.T) {
	ctx := context.Background()
	ws := llmfs.New(mem.New(), nil)
	ws.Write(ctx, "a.txt", "same\n", llmfs.WriteOptions{})
	tb, _ := tools.New(ws, tools.Codex)
	out, err := tb.Call(ctx, "apply_patch", json.RawMessage(`{"input":"*** Begin Patch\n*** Add File: a.txt\n+same\n*** End Patch\n"}`))
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	json.Unmarshal(out, &res)
	if files, ok := res["files"].([]any); !ok || len(files) != 0 {
		t.Errorf("%s: want files []", out)
	}
}

func readFile(t *testing.T, ws *llmfs.Workspace, p string) string {
	t.Helper()
	res, err := ws.Read(context.Background(), p, llmfs.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content
}
