//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/tools"
)

// Issue 32.11: in the codex, anthropic and gemini dialects the text a model reads is what
// the vendor's own tool prints, the JSON object staying the structured result: Codex's
// read_file 'L<n>: ' lines, Claude's editor numbered lines, Gemini CLI's plain content,
// and a short line for an edit rather than a JSON-escaped diff.
func TestVendorText(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		d          tools.Dialect
		tool, args string
		want       string // the whole text
	}{
		{tools.Codex, "read_file", `{"file_path":"a.txt"}`, "L1: one\nL2: two\nL3: three\n"},
		{tools.Codex, "read_file", `{"file_path":"a.txt","limit":1}`, "L1: one\n"},
		{tools.Codex, "list_dir", `{}`, "a.txt\n"},
		{tools.Codex, "grep_files", `{"pattern":"two"}`, "1 file, newest first:\na.txt\n"},
		{tools.Codex, "grep_files", `{"pattern":"zzz"}`, "No files matched.\n"},
		{tools.Codex, "apply_patch", `{"input":"*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch"}`, "Patch applied. Files changed:\nM a.txt\n"},
		{tools.Anthropic, "str_replace_based_edit_tool", `{"command":"view","path":"/a.txt"}`, "     1\tone\n     2\ttwo\n     3\tthree\n"},
		{tools.Anthropic, "str_replace_based_edit_tool", `{"command":"create","path":"/b.txt","file_text":"x\n"}`, "Created /b.txt (2 bytes).\n"},
		{tools.Anthropic, "str_replace_based_edit_tool", `{"command":"str_replace","path":"/a.txt","old_str":"two","new_str":"2"}`,
			"Edited /a.txt: 1 replacement.\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"},
		{tools.Anthropic, "memory", `{"command":"view","path":"/memories"}`, "/memories is empty.\n"},
		{tools.Gemini, "read_file", `{"file_path":"a.txt"}`, "one\ntwo\nthree\n"},
		{tools.Gemini, "read_file", `{"file_path":"a.txt","start_line":1,"end_line":1}`,
			"(showing lines 1-1 of 3; read on with start_line=2)\n\none\n"},
		{tools.Gemini, "write_file", `{"file_path":"b.txt","content":"hi"}`, "Created b.txt (2 bytes).\n"},
		{tools.Gemini, "replace", `{"file_path":"a.txt","old_string":"one","new_string":"1"}`, "Edited a.txt: 1 replacement.\n"},
		{tools.Gemini, "list_directory", `{"dir_path":"."}`, "a.txt\n"},
		{tools.Gemini, "search_file_content", `{"pattern":"thr"}`, "1 match (path:line:text):\na.txt:3:three\n"},
		{tools.Gemini, "glob", `{"pattern":"*.md"}`, "No files matched.\n"},
	} {
		tb, dir := newToolbox(t, c.d)
		res, err := tb.CallResult(ctx, c.tool, json.RawMessage(c.args))
		if err != nil {
			t.Errorf("%s %s %s: %v", c.d, c.tool, c.args, err)
			continue
		}
		got := strings.ReplaceAll(res.Text, dir+"/", "") // host paths shown relative
		if got != c.want {
			t.Errorf("%s %s %s:\n got %q\nwant %q", c.d, c.tool, c.args, got, c.want)
		}
		var obj map[string]any
		if err := json.Unmarshal(res.JSON, &obj); err != nil {
			t.Errorf("%s %s: the JSON result is not an object: %v", c.d, c.tool, err)
		}
	}
}

// Issue 32.11: a read cut at the page size says, after the lines, where to continue, in
// the parameter of the dialect's read.
func TestVendorTextTruncatedRead(t *testing.T) {
	for _, c := range []struct {
		d          tools.Dialect
		tool, args string
		want       string
	}{
		{tools.Codex, "read_file", `{"file_path":"big.txt"}`, "L2000: 2000\n(the file has 2500 lines; more follow: continue with offset=2001)\n"},
		{tools.Gemini, "read_file", `{"file_path":"big.txt"}`, "2000\n"},
	} {
		tb, dir := newToolbox(t, c.d)
		var sb strings.Builder
		for i := 1; i <= 2500; i++ {
			fmt.Fprintf(&sb, "%d\n", i)
		}
		if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := tb.CallResult(context.Background(), c.tool, json.RawMessage(c.args))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(res.Text, c.want) || strings.Count(res.Text, "2001") != 1 {
			t.Errorf("%s %s: text ends %q, want %q", c.d, c.tool, res.Text[max(0, len(res.Text)-120):], c.want)
		}
	}
}
