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
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

func newToolbox(t *testing.T, d tools.Dialect) (*tools.Toolbox, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, d)
	if err != nil {
		t.Fatal(err)
	}
	return tb, dir
}

// snapshot returns every file under dir with its content, to prove a refused call changed nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[p] = "<dir>"
			return nil
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCall_StrictArguments(t *testing.T) {
	type test struct {
		tool, args string
		code       llmfs.Code
		msg        string // a part of the message
	}
	tests := []test{
		{"no_such_tool", `{}`, llmfs.CodeInvalidArgument, `unknown tool "no_such_tool"`},
		{"file_read", `{}`, llmfs.CodeInvalidArgument, `missing required parameter "path"`},
		{"file_read", `{"path":"a.txt","extra":1}`, llmfs.CodeInvalidArgument, `unknown parameter "extra"`},
		{"file_read", `{"path":"a.txt","offset":1.0}`, llmfs.CodeInvalidArgument, `"offset" must be a JSON integer`},
		{"file_read", `{"path":"a.txt","offset":"1"}`, llmfs.CodeInvalidArgument, `"offset" must be a JSON integer`},
		{"file_read", `{"path":"a.txt","offset":1.5}`, llmfs.CodeInvalidArgument, `"offset" must be a JSON integer`},
		{"file_read", `{"path":"a.txt","offset":1e0}`, llmfs.CodeInvalidArgument, `"offset" must be a JSON integer`},
		{"file_read", `{"path":"a.txt","offset":0}`, llmfs.CodeInvalidArgument, `"offset" must be >= 1`},
		{"file_read", `{"path":"a.txt","offset":-1}`, llmfs.CodeInvalidArgument, `"offset" must be >= 1`},
		{"file_read", `{"path":"a.txt","limit":-1}`, llmfs.CodeInvalidArgument, `"limit" must be >= 0`},
		{"file_read", `{"path":"a.txt","limit":1.0}`, llmfs.CodeInvalidArgument, `"limit" must be a JSON integer`},
		{"file_read", `{"path":"a.txt","limit":99999999999999999999}`, llmfs.CodeInvalidArgument, `out of range`},
		{"file_read", `{"path":1}`, llmfs.CodeInvalidArgument, `"path" must be a string`},
		{"file_read", `{"path":"a.txt","path":"b.txt"}`, llmfs.CodeInvalidArgument, `given twice`},
		{"file_read", `[]`, llmfs.CodeInvalidArgument, `must be a JSON object`},
		{"file_read", `{"path":"a.txt"} {}`, llmfs.CodeInvalidArgument, `data after`},
		{"file_read", `{"path":`, llmfs.CodeInvalidArgument, `not valid JSON`},
		{"file_write", `{"path":"new.txt"}`, llmfs.CodeInvalidArgument, `missing required parameter "content"`},
		{"file_write", `{"path":"new.txt","content":"x","mode":"truncate"}`, llmfs.CodeInvalidArgument, `"mode" must be one of`},
		{"file_write", `{"path":"new.txt","content":null}`, llmfs.CodeInvalidArgument, `"content" must be a string`},
		{"file_write", `{"path":"new.txt","content":"x","extra":true}`, llmfs.CodeInvalidArgument, `unknown parameter`},
		{"file_edit", `{"path":"a.txt","old_text":"one"}`, llmfs.CodeInvalidArgument, `missing required parameters`},
		{"file_edit", `{"path":"a.txt","old_text":"","new_text":"x"}`, llmfs.CodeInvalidArgument, `must not be empty`},
		{"file_edit", `{"path":"a.txt","old_text":"one","new_text":"one"}`, llmfs.CodeInvalidArgument, `are the same`},
		{"file_edit", `{"path":"a.txt","old_text":"one","new_text":"1","replace_all":"yes"}`, llmfs.CodeInvalidArgument, `must be true or false`},
		{"file_edit", `{"path":"a.txt","edits":[]}`, llmfs.CodeInvalidArgument, `must not be empty`},
		{"file_edit", `{"path":"a.txt","edits":[{"old_text":"one"}]}`, llmfs.CodeInvalidArgument, `"edits[0].new_text"`},
		{"file_edit", `{"path":"a.txt","edits":[{"old_text":"one","new_text":"1","x":1}]}`, llmfs.CodeInvalidArgument, `"edits[0].x"`},
		{"file_edit", `{"path":"a.txt","old_text":"one","new_text":"1","edits":[{"old_text":"two","new_text":"2"}]}`, llmfs.CodeInvalidArgument, `not both`},
		{"file_edit", `{"path":"a.txt","edits":[{"old_text":"one","new_text":"1"},{"old_text":"nope","new_text":"2"}]}`, llmfs.CodePatternNotFound, `edit 2 of 2`},
		{"file_move", `{"source":"a.txt"}`, llmfs.CodeInvalidArgument, `missing required parameter "destination"`},
		{"file_copy", `{"source":"a.txt","destination":"../b.txt"}`, llmfs.CodeInvalidPath, `outside the workspace root`},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			tb, dir := newToolbox(t, tools.Agentool)
			before := snapshot(t, dir)
			out, err := tb.Call(context.Background(), tt.tool, json.RawMessage(tt.args))
			if err == nil {
				t.Fatalf("Call(%s, %s) = %s, want error %s", tt.tool, tt.args, out, tt.code)
			}
			got := tools.ErrorOf(err)
			if got.Code != string(tt.code) || !strings.Contains(got.Message, tt.msg) {
				t.Errorf("Call(%s, %s) error = %+v, want code %s and message containing %q", tt.tool, tt.args, got, tt.code, tt.msg)
			}
			if after := snapshot(t, dir); !equalMaps(before, after) {
				t.Errorf("Call(%s, %s) changed the workspace:\nbefore %v\nafter  %v", tt.tool, tt.args, before, after)
			}
		})
	}
}

func TestCall_NullOptionalIsAbsent(t *testing.T) {
	tb, _ := newToolbox(t, tools.Agentool)
	out, err := tb.Call(context.Background(), "file_read", json.RawMessage(`{"path":"a.txt","offset":null,"limit":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"content":"one\ntwo\nthree\n","total_lines":3}`; string(out) != want {
		t.Errorf("file_read = %s, want %s", out, want)
	}
}

func TestCall_ModeForbidsTool(t *testing.T) {
	dir := t.TempDir()
	ws, err := host.Open(&llmfs.Options{Root: dir, Mode: llmfs.ReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := tools.New(ws, tools.Agentool)
	_, err = tb.Call(context.Background(), "file_write", json.RawMessage(`{"path":"x","content":"y"}`))
	if got := llmfs.CodeOf(err); got != llmfs.CodePermissionDenied {
		t.Fatalf("file_write in read-only mode: code %q, want PERMISSION_DENIED", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); !os.IsNotExist(err) {
		t.Errorf("file_write in read-only mode created the file")
	}
}

func equalMaps(a, b map[string]string) bool {
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

// TestFileRead_LimitZeroReadsNothing checks that "limit": 0 returns no lines and reports no
// truncation or cut lines, whatever the caps: the caller asked for nothing but the count.
func TestFileRead_LimitZeroReadsNothing(t *testing.T) {
	tb, _ := newToolbox(t, tools.Agentool)
	out, err := tb.Call(context.Background(), "file_read", json.RawMessage(`{"path":"a.txt","limit":0}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"content":"","total_lines":3}`; string(out) != want {
		t.Errorf("file_read limit 0 = %s, want %s", out, want)
	}
	out, err = tb.Call(context.Background(), "file_read", json.RawMessage(`{"path":"a.txt","offset":2,"limit":0}`))
	if err != nil || string(out) != `{"content":"","total_lines":3}` {
		t.Errorf("file_read offset 2 limit 0 = %s, %v", out, err)
	}
}
