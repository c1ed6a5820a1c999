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

// historyBox returns a toolbox with the history tools in dialect d, on a host directory
// holding a.txt, with journals kept in a directory of the test's own.
func historyBox(t *testing.T, d tools.Dialect, actor string) (*tools.Toolbox, string) {
	t.Helper()
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return openBox(t, dir, d, actor), dir
}

func openBox(t *testing.T, dir string, d tools.Dialect, actor string) *tools.Toolbox {
	t.Helper()
	ws, err := host.Open(&llmfs.Options{Root: dir, Actor: actor})
	if err != nil {
		t.Fatal(err)
	}
	off := false
	tb, err := tools.NewWithOptions(ws, d, &tools.Options{History: true, RequireRead: &off})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func callOK(t *testing.T, tb *tools.Toolbox, name, args string) map[string]any {
	t.Helper()
	out, err := tb.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func callErr(t *testing.T, tb *tools.Toolbox, name, args string, code llmfs.Code) string {
	t.Helper()
	_, err := tb.Call(context.Background(), name, json.RawMessage(args))
	if llmfs.CodeOf(err) != code {
		t.Fatalf("%s %s = %v, want %s", name, args, err, code)
	}
	return tools.ErrorOf(err).Message
}

func fileIs(t *testing.T, dir, name, want string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || string(b) != want {
		t.Fatalf("%s = %q (%v), want %q", name, b, err, want)
	}
}

// TestHistoryToolsOffByDefault: issue 14.7, the history tools are offered only when asked
// for, in every dialect.
func TestHistoryToolsOffByDefault(t *testing.T) {
	for _, d := range tools.Dialects {
		names := func(opts *tools.Options) []string {
			defs, err := tools.DefinitionsFor(d, llmfs.Full, opts)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, def := range defs {
				out = append(out, def.Name)
			}
			return out
		}
		if off := names(nil); slices.Contains(off, "history") || slices.Contains(off, "undo") {
			t.Errorf("%s: history tools offered by default: %v", d, off)
		}
		on := names(&tools.Options{History: true})
		if !slices.Contains(on, "history") || !slices.Contains(on, "undo") {
			t.Errorf("%s: History: true offers %v, want history and undo among them", d, on)
		}
		// Read-only: history stays, undo goes.
		defs, _ := tools.DefinitionsFor(d, llmfs.ReadOnly, &tools.Options{History: true})
		var ro []string
		for _, def := range defs {
			ro = append(ro, def.Name)
		}
		if !slices.Contains(ro, "history") || slices.Contains(ro, "undo") {
			t.Errorf("%s read-only: %v, want history without undo", d, ro)
		}
	}
}

// TestHistoryToolsUndoByPath: issue 14.7, undo with path steps back through this
// session's changes of the file one at a time, and history shows each with its diff.
func TestHistoryToolsUndoByPath(t *testing.T) {
	tb, dir := historyBox(t, tools.Agentool, "model")
	callOK(t, tb, "file_edit", `{"path":"a.txt","old_text":"one","new_text":"ONE"}`)
	callOK(t, tb, "file_edit", `{"path":"a.txt","old_text":"two","new_text":"TWO"}`)
	h := callOK(t, tb, "history", `{"path":"a.txt"}`)
	changes := h["changes"].([]any)
	if len(changes) != 2 {
		t.Fatalf("history = %v, want two changes", h)
	}
	newest := changes[0].(map[string]any)
	if newest["actor"] != "model" || newest["op"] != "edit" || newest["added"] != 1.0 || newest["removed"] != 1.0 {
		t.Errorf("newest change = %v", newest)
	}
	one := callOK(t, tb, "history", `{"id":`+jsonNum(newest["id"])+`}`)
	if d, _ := one["diff"].(string); !strings.Contains(d, "-two") || !strings.Contains(d, "+TWO") {
		t.Errorf("history with id: diff %q", one["diff"])
	}

	u := callOK(t, tb, "undo", `{"path":"a.txt"}`)
	fileIs(t, dir, "a.txt", "ONE\ntwo\n")
	if d, _ := u["diff"].(string); !strings.Contains(d, "-TWO") || !strings.Contains(d, "+two") {
		t.Errorf("undo's diff = %q", u["diff"])
	}
	callOK(t, tb, "undo", `{"path":"a.txt"}`)
	fileIs(t, dir, "a.txt", "one\ntwo\n")
	msg := callErr(t, tb, "undo", `{"path":"a.txt"}`, llmfs.CodeInvalidArgument)
	if !strings.Contains(msg, "no change") {
		t.Errorf("third undo: %q", msg)
	}
	// Undo by id of an undo redoes.
	h = callOK(t, tb, "history", `{"limit":1}`)
	callOK(t, tb, "undo", `{"id":`+jsonNum(h["changes"].([]any)[0].(map[string]any)["id"])+`}`)
	fileIs(t, dir, "a.txt", "ONE\ntwo\n")
	// The redo is this session's newest change left: undo by path takes it back.
	callOK(t, tb, "undo", `{"path":"a.txt"}`)
	fileIs(t, dir, "a.txt", "one\ntwo\n")
	callErr(t, tb, "undo", `{"path":"a.txt"}`, llmfs.CodeInvalidArgument)
	callErr(t, tb, "undo", `{}`, llmfs.CodeInvalidArgument)
	callErr(t, tb, "undo", `{"id":1,"path":"a.txt"}`, llmfs.CodeInvalidArgument)
	callErr(t, tb, "undo", `{"id":999}`, llmfs.CodeInvalidArgument)
}

func jsonNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestHistoryToolsUndoFileChanged: issue 14.7, an undo over a file changed since (here
// outside llmfs) is refused with FILE_CHANGED, the message shows what changed, and the
// file is left alone. Undo by path finds only this session's changes.
func TestHistoryToolsUndoFileChanged(t *testing.T) {
	tb, dir := historyBox(t, tools.Agentool, "model")
	callOK(t, tb, "file_edit", `{"path":"a.txt","old_text":"one","new_text":"ONE"}`)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("ONE\ntwo\nedited by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := callErr(t, tb, "undo", `{"path":"a.txt"}`, llmfs.CodeFileChanged)
	if !strings.Contains(msg, "+edited by hand") {
		t.Errorf("FILE_CHANGED message lacks the diff of what changed: %q", msg)
	}
	fileIs(t, dir, "a.txt", "ONE\ntwo\nedited by hand\n")

	other := openBox(t, dir, tools.Agentool, "someone-else")
	callErr(t, other, "undo", `{"path":"a.txt"}`, llmfs.CodeInvalidArgument)
}

// TestHistoryToolsVirtualPaths: issue 14.7, in rtc and anthropic the history tools take
// and show virtual paths, / being the root.
func TestHistoryToolsVirtualPaths(t *testing.T) {
	for _, d := range []tools.Dialect{tools.RTC, tools.Anthropic} {
		t.Run(string(d), func(t *testing.T) {
			tb, dir := historyBox(t, d, "model")
			callOK(t, tb, "patch", "{\"patch\":\"<<<<<<< SEARCH\\none\\n=======\\nONE\\n>>>>>>> REPLACE\\n\",\"path\":\"/a.txt\"}")
			h := callOK(t, tb, "history", `{"path":"/a.txt"}`)
			c := h["changes"].([]any)[0].(map[string]any)
			if c["path"] != "/a.txt" || c["op"] != "patch" {
				t.Errorf("change = %v, want a patch of /a.txt", c)
			}
			u := callOK(t, tb, "undo", `{"path":"/a.txt"}`)
			if p := u["paths"].([]any); len(p) != 1 || p[0] != "/a.txt" {
				t.Errorf("undo paths = %v", p)
			}
			fileIs(t, dir, "a.txt", "one\ntwo\n")
		})
	}
}

// TestAnthropicUndoEditAcrossRestart: issue 17.1, undo_edit works on the journal: it
// takes back the session actor's newest change to the file even after the server
// restarted (here: a new workspace and toolbox on the same host directory), refuses with
// FILE_CHANGED when the file changed since, and is itself journaled. It was a stack in the
// toolbox's memory, gone with the process.
func TestAnthropicUndoEditAcrossRestart(t *testing.T) {
	tb, dir := historyBox(t, tools.Anthropic, "mcp:claude")
	callOK(t, tb, "str_replace_based_edit_tool", `{"command":"str_replace","path":"/a.txt","old_str":"one","new_str":"ONE"}`)
	callOK(t, tb, "str_replace_based_edit_tool", `{"command":"insert","path":"/a.txt","insert_line":0,"insert_text":"zero"}`)

	tb = openBox(t, dir, tools.Anthropic, "mcp:claude") // the restart
	u := callOK(t, tb, "str_replace_based_edit_tool", `{"command":"undo_edit","path":"/a.txt"}`)
	if u["undone"] != true || u["path"] != "/a.txt" || !strings.Contains(u["diff"].(string), "-zero") {
		t.Errorf("undo_edit = %v", u)
	}
	fileIs(t, dir, "a.txt", "ONE\ntwo\n")
	h := callOK(t, tb, "history", `{"limit":1}`)
	if c := h["changes"].([]any)[0].(map[string]any); c["op"] != "undo" || c["actor"] != "mcp:claude" {
		t.Errorf("the undo is not journaled as this actor's undo: %v", c)
	}

	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("ONE\ntwo\nby hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := callErr(t, tb, "str_replace_based_edit_tool", `{"command":"undo_edit","path":"/a.txt"}`, llmfs.CodeFileChanged)
	if !strings.Contains(msg, "+by hand") {
		t.Errorf("FILE_CHANGED message lacks the diff: %q", msg)
	}
	fileIs(t, dir, "a.txt", "ONE\ntwo\nby hand\n")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("ONE\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	callOK(t, tb, "str_replace_based_edit_tool", `{"command":"undo_edit","path":"/a.txt"}`)
	fileIs(t, dir, "a.txt", "one\ntwo\n")
	callErr(t, tb, "str_replace_based_edit_tool", `{"command":"undo_edit","path":"/a.txt"}`, llmfs.CodeInvalidArgument)
	// Another actor's toolbox has nothing of its own to undo.
	callOK(t, tb, "str_replace_based_edit_tool", `{"command":"str_replace","path":"/a.txt","old_str":"one","new_str":"1"}`)
	other := openBox(t, dir, tools.Anthropic, "mcp:other")
	callErr(t, other, "str_replace_based_edit_tool", `{"command":"undo_edit","path":"/a.txt"}`, llmfs.CodeInvalidArgument)
}

// TestGeminiReplaceCountRevertJournaled: issue 14.1, the replace that finds another number
// of occurrences than expected_replacements took its edit back; that revert went straight
// to the store, so the journal held an edit the file no longer showed. Then it was
// journaled as an undo (a third undo path); now (issue 34) the count is checked before
// anything is written, so neither the file nor the journal shows the refused replace, and
// the flexible matcher's count is checked the same way.
func TestGeminiReplaceCountRevertJournaled(t *testing.T) {
	tb, dir := historyBox(t, tools.Gemini, "model")
	callErr(t, tb, "replace", `{"file_path":"a.txt","old_string":"o","new_string":"0","expected_replacements":3}`, llmfs.CodePatternNotUnique)
	callErr(t, tb, "replace", `{"file_path":"a.txt","old_string":"one  two","new_string":"1 2","expected_replacements":2}`, llmfs.CodePatternNotUnique)
	fileIs(t, dir, "a.txt", "one\ntwo\n")
	h := callOK(t, tb, "history", `{"path":"a.txt"}`)
	var ops []string
	for _, c := range h["changes"].([]any) {
		ops = append(ops, c.(map[string]any)["op"].(string))
	}
	if len(ops) != 0 {
		t.Errorf("history of the refused replaces = %v, want none", ops)
	}
	// The count that is there goes through.
	callOK(t, tb, "replace", `{"file_path":"a.txt","old_string":"o","new_string":"0","expected_replacements":2}`)
	fileIs(t, dir, "a.txt", "0ne\ntw0\n")
}
