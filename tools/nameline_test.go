//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// TestListNamesOnlyTextOneLineEach: in the text of directory_list with names_only, each
// entry is one line; a name with a newline, another control character or a leading quote
// comes quoted, so that "a\nb" does not read as the two entries "a" and "b". The JSON
// keeps the names as they are (as JSON can).
func TestListNamesOnlyTextOneLineEach(t *testing.T) {
	dir := t.TempDir()
	files := []string{"a", "a\nb", "tab\there", `"q"`, "(empty directory)", "plain é.txt", "bad\xffutf8", "rtl\u202egnp.exe", "ls\u2028x"}
	for _, name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tb.CallResult(context.Background(), "directory_list", []byte(`{"names_only":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "\"\\\"q\\\"\"\n\"(empty directory)\"\n" + "a\n\"a\\nb\"\n\"bad\\xffutf8\"\n\"ls\\u2028x\"\nplain é.txt\n\"rtl\\u202egnp.exe\"\n\"tab\\there\"\n"
	if res.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s", res.Text, want)
	}
	var out struct{ Names []string }
	if err := json.Unmarshal(res.JSON, &out); err != nil {
		t.Fatal(err)
	}
	// JSON has no bytes that are not UTF-8: such a name comes with U+FFFD in their place.
	var sorted []string
	for _, f := range slices.Sorted(slices.Values(files)) {
		sorted = append(sorted, strings.ToValidUTF8(f, "\uFFFD"))
	}
	if !slices.Equal(out.Names, sorted) {
		t.Errorf("names = %q, want %q", out.Names, sorted)
	}
}

// TestTreeNameOneLineEach: the directory trees of codex's list_dir and the Anthropic
// editor's view quote a name with a newline, so that "a\n  b" does not fake a child.
func TestTreeNameOneLineEach(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a\n  b"), nil, 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d          tools.Dialect
		name, args string
	}{
		{tools.Codex, "list_dir", `{"dir_path":"` + filepath.ToSlash(dir) + `"}`},
		{tools.Anthropic, "str_replace_based_edit_tool", `{"command":"view","path":"/"}`},
	} {
		tb, err := tools.New(ws, c.d)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tb.CallResult(context.Background(), c.name, []byte(c.args))
		if err != nil {
			t.Fatalf("%s %s: %v", c.d, c.name, err)
		}
		// The text is plain (vendortext.go), the JSON escapes it once more.
		if !strings.Contains(res.Text, `"a\n  b"`) || strings.Contains(res.Text, "a\n  b") {
			t.Errorf("%s %s: the name is not quoted in the text %s", c.d, c.name, res.Text)
		}
		if !strings.Contains(string(res.JSON), `\"a\\n  b\"`) {
			t.Errorf("%s %s: the name is not quoted in the JSON %s", c.d, c.name, res.JSON)
		}
	}
}

// TestListNamesOnlyQuotedDirectory: a directory's slash stays outside the quotes of its
// name, as in the trees of the other dialects, and the JSON name keeps its slash.
func TestListNamesOnlyQuotedDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d\nir"), 0o755); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tb.CallResult(context.Background(), "directory_list", []byte(`{"names_only":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "\"d\\nir\"/\n"; res.Text != want {
		t.Errorf("text = %q, want %q", res.Text, want)
	}
	var out struct{ Names []string }
	if err := json.Unmarshal(res.JSON, &out); err != nil || !slices.Equal(out.Names, []string{"d\nir/"}) {
		t.Errorf("names = %q, %v; want [\"d\\nir/\"]", out.Names, err)
	}
}
