//go:build !js && !wasip1

package main

import (
	"encoding/json"
	"testing"
)

// Issue 32.12 and 32.13: `llmfs tools` prints Claude's built-in declarations with
// --format anthropic-builtin and Chat Completions tools with --format openai-chat.
func TestToolsFormats(t *testing.T) {
	code, out, errOut := runCLI(t, "tools", "--dialect", "anthropic", "--format", "anthropic-builtin")
	var builtin []map[string]any
	if err := json.Unmarshal([]byte(out), &builtin); code != 0 || err != nil || len(builtin) != 3 {
		t.Fatalf("anthropic-builtin = %d, %v, %s%s", code, err, out, errOut)
	}
	if b := builtin[0]; b["type"] != "text_editor_20250728" || b["name"] != "str_replace_based_edit_tool" || len(b) != 2 {
		t.Errorf("editor declared as %v", b)
	}
	if b := builtin[1]; b["type"] != "memory_20250818" || b["name"] != "memory" || len(b) != 2 {
		t.Errorf("memory declared as %v", b)
	}
	code, out, errOut = runCLI(t, "tools", "--format", "openai-chat")
	var chat []struct {
		Type     string
		Function struct{ Name string }
	}
	if err := json.Unmarshal([]byte(out), &chat); code != 0 || err != nil || len(chat) == 0 {
		t.Fatalf("openai-chat = %d, %v, %s%s", code, err, out, errOut)
	}
	for _, c := range chat {
		if c.Type != "function" || c.Function.Name == "" {
			t.Errorf("chat tool %+v", c)
		}
	}
}
