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
	"github.com/llmfs/llmfs/tools"
)

// Issue 32.13: --format openai-chat is the Chat Completions shape,
// {type: "function", function: {name, description, parameters, strict}}, grammar tools
// included as functions.
func TestFormatOpenAIChat(t *testing.T) {
	for _, d := range tools.Dialects {
		defs, err := tools.Definitions(d, llmfs.Full)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := tools.Format(defs, "openai-chat")
		if err != nil {
			t.Fatal(err)
		}
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			t.Fatal(err)
		}
		if len(list) != len(defs) {
			t.Fatalf("%s: %d tools, want %d", d, len(list), len(defs))
		}
		for i, tool := range list {
			if keys := keysOf(tool); !slices.Equal(keys, []string{"function", "type"}) || string(tool["type"]) != `"function"` {
				t.Errorf("%s: tool keys %v type %s", d, keys, tool["type"])
			}
			var fn map[string]any
			if err := json.Unmarshal(tool["function"], &fn); err != nil {
				t.Fatal(err)
			}
			if keys := keysOf(fn); !slices.Equal(keys, []string{"description", "name", "parameters", "strict"}) || fn["name"] != defs[i].Name {
				t.Errorf("%s: function keys %v name %v", d, keys, fn["name"])
			}
			checkJSONSchema(t, fn["parameters"].(map[string]any))
		}
	}
}

// Issue 32.13: a Responses apply_patch_call (the hosted apply_patch tool) is applied and
// answered with an apply_patch_call_output item; a failure is status failed with a coded
// message and changes nothing.
func TestApplyPatchCall(t *testing.T) {
	tb, dir := newToolbox(t, tools.Codex)
	ctx := context.Background()
	call := func(op string) map[string]any {
		t.Helper()
		raw, err := tb.ApplyPatchCall(ctx, json.RawMessage(`{"type":"apply_patch_call","id":"apc_1","call_id":"call_7","status":"completed","operation":`+op+`}`))
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		if keys := keysOf(out); !slices.Equal(keys, []string{"call_id", "output", "status", "type"}) ||
			out["type"] != "apply_patch_call_output" || out["call_id"] != "call_7" {
			t.Errorf("%s: output item %v", op, out)
		}
		return out
	}
	file := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return string(b)
	}
	ok := func(op, want string) {
		t.Helper()
		if out := call(op); out["status"] != "completed" || out["output"] != want {
			t.Errorf("%s: %v, want completed %q", op, out, want)
		}
	}
	ok(`{"type":"create_file","path":"src/new.go","diff":"+package src\n+\n+func A() {}\n"}`, "Created src/new.go")
	if got := file("src/new.go"); got != "package src\n\nfunc A() {}\n" {
		t.Errorf("created %q", got)
	}
	ok(`{"type":"update_file","path":"a.txt","diff":"@@\n one\n-two\n+TWO\n three"}`, "Updated a.txt")
	if got := file("a.txt"); got != "one\nTWO\nthree\n" {
		t.Errorf("updated %q", got)
	}
	ok(`{"type":"delete_file","path":"src/new.go"}`, "Deleted src/new.go")
	if got := file("src/new.go"); !strings.HasPrefix(got, "<") {
		t.Errorf("deleted file still holds %q", got)
	}

	before := snapshot(t, dir)
	for _, c := range []struct{ op, code string }{
		{`{"type":"update_file","path":"a.txt","diff":"@@\n-nowhere\n+x\n"}`, "PATTERN_NOT_FOUND"},
		{`{"type":"update_file","path":"missing.txt","diff":"@@\n-a\n+b\n"}`, "FILE_NOT_FOUND"},
		{`{"type":"create_file","path":"a.txt","diff":"+x\n"}`, "FILE_ALREADY_EXISTS"},
		{`{"type":"create_file","path":"b.txt","diff":"+x\ny\n"}`, "INVALID_ARGUMENT"},
		{`{"type":"update_file","path":"a.txt","diff":"@@\n-one\n+1\n*** Delete File: b.txt\n"}`, "INVALID_ARGUMENT"},
		{`{"type":"rename_file","path":"a.txt"}`, "INVALID_ARGUMENT"},
		{`{"type":"update_file","path":"a.txt"}`, "INVALID_ARGUMENT"},
		{`{"type":"update_file","path":"../out.txt","diff":"@@\n-a\n+b\n"}`, ""},
		{`"x"`, "INVALID_ARGUMENT"},
	} {
		out := call(c.op)
		msg, _ := out["output"].(string)
		if out["status"] != "failed" || !strings.HasPrefix(msg, c.code) || !strings.Contains(msg, ": ") {
			t.Errorf("%s: %v, want failed %s", c.op, out, c.code)
		}
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Errorf("failed operations changed files:\n%v\n%v", before, after)
	}

	for _, item := range []string{`{"type":"function_call","call_id":"c"}`, `{"type":"apply_patch_call"}`, `[`} {
		if _, err := tb.ApplyPatchCall(ctx, json.RawMessage(item)); llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
			t.Errorf("%s: %v, want INVALID_ARGUMENT", item, err)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
