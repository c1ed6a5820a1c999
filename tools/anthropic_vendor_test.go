//go:build !js && !wasip1

package tools_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// Issue 32.6: the anthropic dialect answers as Anthropic's tools do. The SDKs' memory tool
// helpers (BetaLocalFilesystemMemoryTool, in Python and TypeScript) refuse to create a file
// that exists; the note after a partial view points to view_range, the only way view
// reads a part; and no message names replace_all or a write mode, which these tools lack.
func TestAnthropicAnswersAsItsTools(t *testing.T) {
	ws, dir := hostWorkspace(t, llmfs.Options{Limits: llmfs.Limits{MaxReadLines: 3}}, map[string]string{
		"memories/notes.md": "keep\n", "twice.txt": "x\nx\n", "long.txt": strings.Repeat("line\n", 10),
	})
	tb, err := tools.New(ws, tools.Anthropic)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"memory", "str_replace_based_edit_tool"} {
		p := "/memories/notes.md"
		msg := callErr(t, tb, name, `{"command":"create","path":"`+p+`","file_text":"lost"}`, llmfs.CodeFileAlreadyExists)
		if !strings.Contains(msg, p+" already exists") || strings.Contains(msg, "overwrite") {
			t.Errorf("%s create of an existing file: %q", name, msg)
		}
		fileIs(t, dir, "memories/notes.md", "keep\n")
	}
	callOK(t, tb, "memory", `{"command":"create","path":"/memories/new.md","file_text":"fresh\n"}`)
	fileIs(t, dir, "memories/new.md", "fresh\n")

	msg := callErr(t, tb, "str_replace_based_edit_tool", `{"command":"str_replace","path":"/twice.txt","old_str":"x","new_str":"y"}`, llmfs.CodePatternNotUnique)
	if strings.Contains(msg, "replace_all") || !strings.HasSuffix(msg, ".") {
		t.Errorf("str_replace of a repeated text: %q", msg)
	}
	out := callOK(t, tb, "str_replace_based_edit_tool", `{"command":"view","path":"/long.txt","view_range":[2,-1]}`)
	if c := out["content"].(string); !strings.Contains(c, "view_range [5, -1]") || strings.Contains(c, "offset") {
		t.Errorf("view of a part with more lines: %q", c)
	}
}
