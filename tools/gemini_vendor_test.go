//go:build !js && !wasip1

package tools_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// geminiBox is a gemini toolbox on a fresh directory holding files.
func geminiBox(t *testing.T, files map[string]string) (*tools.Toolbox, string) {
	t.Helper()
	ws, dir := hostWorkspace(t, llmfs.Options{}, files)
	tb, err := tools.New(ws, tools.Gemini)
	if err != nil {
		t.Fatal(err)
	}
	return tb, dir
}

// Issue 32.5: grep_search, gemini-cli's search tool since February 2026 (grep.ts, and the
// parameters of its Gemini 3 declaration), ignores case unless case_sensitive is true, as
// there; the older search_file_content still answers.
func TestGeminiGrepSearch(t *testing.T) {
	tb, _ := geminiBox(t, map[string]string{"src/a.ts": "const Hello = 1;\nhello();\n", "src/b.js": "HELLO\n", "notes.md": "nothing\n"})
	defs := tb.Definitions()
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "grep_search") || strings.Contains(strings.Join(names, ","), "search_file_content") {
		t.Errorf("gemini tools: %v, want grep_search and not the older name", names)
	}
	out := callOK(t, tb, "grep_search", `{"pattern":"hello","dir_path":"src","include_pattern":"*.ts"}`)
	if got := out["output"]; got != "src/a.ts:1:const Hello = 1;\nsrc/a.ts:2:hello();\n" {
		t.Errorf("grep_search ignoring case = %q", got)
	}
	out = callOK(t, tb, "grep_search", `{"pattern":"hello","case_sensitive":true}`)
	if got := out["output"]; got != "src/a.ts:2:hello();\n" {
		t.Errorf("grep_search case_sensitive = %q", got)
	}
	out = callOK(t, tb, "grep_search", `{"pattern":"hello(","fixed_strings":true,"names_only":true}`)
	if got := out["output"]; got != "src/a.ts\n" {
		t.Errorf("grep_search fixed_strings names_only = %q", got)
	}
	out = callOK(t, tb, "grep_search", `{"pattern":"hello","total_max_matches":1,"before":1}`)
	if got := out["output"]; got != "src/a.ts:1:const Hello = 1;\n" || out["truncated"] != true {
		t.Errorf("grep_search total_max_matches = %v", out)
	}
	out = callOK(t, tb, "grep_search", `{"pattern":"hello","exclude_pattern":"const"}`)
	if got := out["output"]; got != "src/a.ts:2:hello();\nsrc/b.js:1:HELLO\n" {
		t.Errorf("grep_search exclude_pattern = %q", got)
	}
	out = callOK(t, tb, "grep_search", `{"pattern":"hello","max_matches_per_file":1}`)
	if got := out["output"]; got != "src/a.ts:1:const Hello = 1;\nsrc/b.js:1:HELLO\n" {
		t.Errorf("grep_search max_matches_per_file = %q", got)
	}
	out = callOK(t, tb, "search_file_content", `{"pattern":"HELLO","include":"*.js"}`)
	if got := out["output"]; got != "src/b.js:1:HELLO\n" {
		t.Errorf("search_file_content = %q", got)
	}
}

// Issue 32.5: replace as gemini-cli's edit.ts: an empty old_string creates a file and
// refuses one that exists (ATTEMPT_TO_CREATE_EXISTING_FILE); the "not unique" answer
// names allow_multiple (EXPECTED_OCCURRENCE_MISMATCH, "one one two"); whitespace that
// differs inside a line is forgiven ("flexible intra-line whitespace").
func TestGeminiReplaceAsEditTs(t *testing.T) {
	tb, dir := geminiBox(t, map[string]string{"old.txt": "existing content", "one.txt": "one one two",
		"f.js": "  function  myFunc( a, b ) {\n    return a + b;\n  }"})
	callOK(t, tb, "replace", `{"file_path":"made/new.txt","old_string":"","new_string":"new content"}`)
	fileIs(t, dir, "made/new.txt", "new content")
	msg := callErr(t, tb, "replace", `{"file_path":"old.txt","old_string":"","new_string":"new content"}`, llmfs.CodeFileAlreadyExists)
	if !strings.Contains(msg, "already exists") {
		t.Errorf("replace creating an existing file: %q", msg)
	}
	fileIs(t, dir, "old.txt", "existing content")
	msg = callErr(t, tb, "replace", `{"file_path":"one.txt","old_string":"one","new_string":"new"}`, llmfs.CodePatternNotUnique)
	if strings.Contains(msg, "replace_all") || !strings.Contains(msg, "allow_multiple") {
		t.Errorf("replace of a repeated text: %q", msg)
	}
	callOK(t, tb, "replace", `{"file_path":"f.js","old_string":"function myFunc(a, b) {","new_string":"const yourFunc = (a, b) => {"}`)
	fileIs(t, dir, "f.js", "  const yourFunc = (a, b) => {\n    return a + b;\n  }")
}

// Issue 32.5: glob as gemini-cli's glob.ts: case_sensitive false (its default) matches
// either case ("*.TXT"); a pattern naming a file with [ ] or ( ) finds it literally
// ("special characters like [] and () in the path"); a whitespace-only pattern is refused.
func TestGeminiGlobAsGlobTs(t *testing.T) {
	tb, _ := geminiBox(t, map[string]string{"fileA.txt": "a", "FileB.TXT": "b", "file[1].txt": "c",
		"src/app/[test]/(dashboard)/testing/components/code.tsx": "d"})
	files := func(args string) string {
		out := callOK(t, tb, "glob", args)
		var got []string
		for _, f := range out["files"].([]any) {
			got = append(got, f.(string))
		}
		return strings.Join(got, ",")
	}
	if got := files(`{"pattern":"*.TXT","case_sensitive":false}`); !strings.Contains(got, "fileA.txt") || !strings.Contains(got, "FileB.TXT") {
		t.Errorf("glob *.TXT ignoring case = %s", got)
	}
	if got := files(`{"pattern":"*.TXT"}`); !strings.Contains(got, "fileA.txt") {
		t.Errorf("glob *.TXT by default = %s", got)
	}
	if got := files(`{"pattern":"*.txt","case_sensitive":true}`); strings.Contains(got, "FileB.TXT") || !strings.Contains(got, "fileA.txt") {
		t.Errorf("glob *.txt case_sensitive = %s", got)
	}
	if got := files(`{"pattern":"file[1].txt"}`); got != "file[1].txt" {
		t.Errorf("glob file[1].txt = %s", got)
	}
	p := "src/app/[test]/(dashboard)/testing/components/code.tsx"
	if got := files(`{"pattern":"` + p + `"}`); got != p {
		t.Errorf("glob %s = %s", p, got)
	}
	callErr(t, tb, "glob", `{"pattern":"   "}`, llmfs.CodeInvalidArgument)
}

// Issue 32.5: read_many_files as gemini-cli's read-many-files.ts: a path with [ ] and ( )
// is read literally, and its default excludes leave out node_modules though no
// .gitignore names it ("should use default excludes").
func TestGeminiReadManyAsReadManyFilesTs(t *testing.T) {
	p := "src/app/[test]/(dashboard)/testing/components/code.tsx"
	tb, _ := geminiBox(t, map[string]string{p: "Content of receive-detail\n", "file[1].txt": "Content of file[1]\n",
		"node_modules/some-lib/index.js": "lib code\n", "src/app.js": "app code\n"})
	for _, name := range []string{p, "file[1].txt"} {
		out := callOK(t, tb, "read_many_files", `{"include":["`+name+`"]}`)
		if fs := out["files"].([]any); len(fs) != 1 || fs[0] != name {
			t.Errorf("read_many_files %s: %v", name, out)
		}
	}
	out := callOK(t, tb, "read_many_files", `{"include":["**/*.js"]}`)
	if fs := out["files"].([]any); len(fs) != 1 || fs[0] != "src/app.js" {
		t.Errorf("read_many_files **/*.js: %v", out["files"])
	}
}
