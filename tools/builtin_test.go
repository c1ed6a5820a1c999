//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// Issue 32.12: --format anthropic-builtin declares the anthropic dialect's editor and
// memory tools by Claude's built-in types, and the calls Claude makes with them (the
// schema it was trained on) run as they stand.
func TestAnthropicBuiltinDeclarations(t *testing.T) {
	defs, err := tools.Definitions(tools.Anthropic, llmfs.Full)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tools.Format(defs, "anthropic-builtin")
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"str_replace_based_edit_tool": "text_editor_20250728", "memory": "memory_20250818"}
	for _, tool := range list {
		name := tool["name"].(string)
		if ty, ok := want[name]; ok {
			if len(tool) != 2 || tool["type"] != ty {
				t.Errorf("%s declared as %v, want {type: %s, name}", name, tool, ty)
			}
			delete(want, name)
			continue
		}
		if _, ok := tool["input_schema"]; !ok { // patch has no built-in form
			t.Errorf("%s has no input_schema: %v", name, tool)
		}
	}
	if len(want) > 0 {
		t.Errorf("not declared by type: %v", want)
	}
	// Other dialects have no built-ins: the two formats agree.
	codex, _ := tools.Definitions(tools.Codex, llmfs.Full)
	a, _ := tools.Format(codex, "anthropic")
	b, _ := tools.Format(codex, "anthropic-builtin")
	if string(a) != string(b) {
		t.Error("codex renders differently in anthropic-builtin")
	}

	tb, dir := newToolbox(t, tools.Anthropic)
	ctx := context.Background()
	for _, c := range []struct{ tool, args, want string }{
		{"str_replace_based_edit_tool", `{"command":"view","path":"/a.txt"}`, "two"},
		{"str_replace_based_edit_tool", `{"command":"view","path":"/a.txt","view_range":[2,-1]}`, "three"},
		{"str_replace_based_edit_tool", `{"command":"create","path":"/src/b.py","file_text":"print(1)\n"}`, "b.py"},
		{"str_replace_based_edit_tool", `{"command":"str_replace","path":"/src/b.py","old_str":"print(1)","new_str":"print(2)"}`, "b.py"},
		{"str_replace_based_edit_tool", `{"command":"insert","path":"/src/b.py","insert_line":0,"insert_text":"import os\n"}`, "b.py"},
		{"str_replace_based_edit_tool", `{"command":"view","path":"/"}`, "src/"},
		{"memory", `{"command":"view","path":"/memories"}`, "/memories"},
		{"memory", `{"command":"create","path":"/memories/notes.md","file_text":"- a\n"}`, "notes.md"},
		{"memory", `{"command":"str_replace","path":"/memories/notes.md","old_str":"- a","new_str":"- b"}`, "notes.md"},
		{"memory", `{"command":"insert","path":"/memories/notes.md","insert_line":1,"insert_text":"- c\n"}`, "notes.md"},
		{"memory", `{"command":"rename","old_path":"/memories/notes.md","new_path":"/memories/done.md"}`, "done.md"},
		{"memory", `{"command":"view","path":"/memories/done.md","view_range":[1,2]}`, "- c"},
		{"memory", `{"command":"delete","path":"/memories/done.md"}`, "done.md"},
	} {
		res, err := tb.CallResult(ctx, c.tool, json.RawMessage(c.args))
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.args, err)
			continue
		}
		if !strings.Contains(res.Text, c.want) {
			t.Errorf("%s %s: text %q lacks %q", c.tool, c.args, res.Text, c.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src", "b.py")); string(b) != "import os\nprint(2)\n" {
		t.Errorf("b.py = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "memories", "done.md")); !os.IsNotExist(err) {
		t.Errorf("done.md not deleted: %v", err)
	}
}
