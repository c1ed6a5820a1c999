//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// outputCalls are calls whose results must match their tool's output schema, by tool
// name; several per tool to reach the optional fields (truncated, next_offset, ...).
var outputCalls = map[string][]string{
	"file_read":        {`{"path":"img.png"}`, `{"path":"a.txt"}`, `{"path":"a.txt","offset":2,"limit":1}`, `{"path":"a.txt","offset":9}`, `{"path":"a.txt","limit":0}`},
	"file_write":       {`{"path":"new/w.txt","content":"x"}`},
	"file_edit":        {`{"path":"a.txt","old_text":"two","new_text":"TWO"}`},
	"directory_create": {`{"path":"d/e"}`},
	"directory_list":   {`{}`},
	"file_delete":      {`{"path":"gone.txt"}`},
	"file_move":        {`{"source":"m.txt","destination":"m2.txt"}`},
	"file_copy":        {`{"source":"a.txt","destination":"c.txt"}`},
	"file_find":        {`{"pattern":"*.txt"}`, `{"pattern":"*.txt","head_limit":1}`},
	"file_grep":        {`{"pattern":"o"}`, `{"pattern":"o","output_mode":"content","head_limit":1}`, `{"pattern":"o","output_mode":"count"}`},
	"ls":               {`{}`, `{"path":"/sub"}`},
	"read":             {`{"path":"/img.png"}`, `{"path":"/a.txt"}`, `{"path":"/a.txt","offset":2,"limit":1}`},
	"write":            {`{"path":"/new/w.txt","content":"x"}`},
	"edit":             {`{"path":"/a.txt","old_string":"two","new_string":"TWO"}`},
	"find":             {`{"pattern":"*.txt"}`},
	"grep":             {`{"pattern":"o","output_mode":"content"}`},

	// The patch tool of every dialect; virtual dialects spell paths from "/".
	"patch":           {"{\"patch\":\"<<<<<<< SEARCH\\nso\\n=======\\nSO\\n>>>>>>> REPLACE\\n\",\"path\":\"sub/s.txt\"}"},
	"rtc/patch":       {"{\"patch\":\"<<<<<<< SEARCH\\nso\\n=======\\nSO\\n>>>>>>> REPLACE\\n\",\"path\":\"/sub/s.txt\"}"},
	"anthropic/patch": {"{\"patch\":\"<<<<<<< SEARCH\\nso\\n=======\\nSO\\n>>>>>>> REPLACE\\n\",\"path\":\"/sub/s.txt\"}"},

	"codex/apply_patch": {"{\"input\":\"*** Begin Patch\\n*** Update File: b.txt\\n@@\\n-foo\\n+bar\\n*** Add File: added.txt\\n+new\\n*** End Patch\\n\"}"},
	"codex/read_file":   {`{"file_path":"a.txt"}`, `{"file_path":"a.txt","offset":2,"limit":1}`, `{"file_path":"img.png"}`},
	"codex/list_dir":    {`{}`, `{"limit":1}`},
	"codex/grep_files":  {`{"pattern":"o"}`, `{"pattern":"o","limit":1}`},

	"anthropic/str_replace_based_edit_tool": {
		`{"command":"view","path":"/"}`, `{"command":"view","path":"/a.txt"}`, `{"command":"view","path":"/a.txt","view_range":[1,1]}`,
		`{"command":"view","path":"/img.png"}`, `{"command":"create","path":"/created.txt","file_text":"c\n"}`,
		`{"command":"str_replace","path":"/a.txt","old_str":"two","new_str":"TWO"}`, `{"command":"insert","path":"/a.txt","insert_line":0,"insert_text":"zero\n"}`,
		`{"command":"undo_edit","path":"/a.txt"}`,
	},
	"anthropic/memory": {
		`{"command":"view","path":"/memories"}`, `{"command":"create","path":"/memories/n.md","file_text":"note\n"}`,
		`{"command":"view","path":"/memories/n.md"}`, `{"command":"str_replace","path":"/memories/n.md","old_str":"note","new_str":"NOTE"}`,
		`{"command":"rename","old_path":"/memories/n.md","new_path":"/memories/m.md"}`, `{"command":"delete","path":"/memories/m.md"}`,
	},

	"gemini/read_file":       {`{"file_path":"a.txt"}`, `{"file_path":"a.txt","start_line":1,"end_line":1}`, `{"file_path":"img.png"}`},
	"gemini/write_file":      {`{"file_path":"new/w.txt","content":"x"}`},
	"gemini/replace":         {`{"file_path":"a.txt","old_string":"two","new_string":"TWO"}`, `{"file_path":"c.txt","old_string":"","new_string":"c"}`},
	"gemini/list_directory":  {`{"dir_path":"."}`},
	"gemini/glob":            {`{"pattern":"*.txt"}`},
	"gemini/grep_search":     {`{"pattern":"o"}`, `{"pattern":"o","names_only":true}`},
	"gemini/read_many_files": {`{"include":["a.txt","*.txt"]}`, `{"include":["img.png","a.txt"]}`},

	// The history tools (Options.History), last in every dialect: the changes above are
	// there to show and undo.
	"history":           {`{}`, `{"id":1}`, `{"path":"a.txt","limit":1}`},
	"rtc/history":       {`{}`, `{"id":1}`, `{"path":"/a.txt","limit":1}`},
	"anthropic/history": {`{}`, `{"id":1}`, `{"path":"/a.txt","limit":1}`},
	"undo":              {`{"id":1}`},
}

// TestOutputSchemas walks every tool of every dialect, the history tools included: each
// must declare a closed output schema, and each result of the sample calls must match it.
func TestOutputSchemas(t *testing.T) {
	for _, d := range tools.Dialects {
		defs, err := tools.DefinitionsFor(d, llmfs.Full, &tools.Options{History: true})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for name, content := range map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "foo\n", "gone.txt": "x", "m.txt": "m", "sub/s.txt": "so\n", "img.png": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ws, err := host.Open(&llmfs.Options{Root: dir})
		if err != nil {
			t.Fatal(err)
		}
		tb, err := tools.NewWithOptions(ws, d, &tools.Options{History: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, def := range defs {
			if len(def.OutputSchema) == 0 {
				t.Errorf("%s/%s: no output schema", d, def.Name)
				continue
			}
			var s jsonschema.Schema
			if err := json.Unmarshal(def.OutputSchema, &s); err != nil {
				t.Fatalf("%s/%s: output schema is not a JSON Schema: %v", d, def.Name, err)
			}
			if s.Type != "object" || s.AdditionalProperties == nil {
				t.Errorf("%s/%s: output schema must be a closed object", d, def.Name)
			}
			rs, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("%s/%s: %v", d, def.Name, err)
			}
			calls, ok := outputCalls[string(d)+"/"+def.Name]
			if !ok {
				calls = outputCalls[def.Name]
			}
			if len(calls) == 0 {
				t.Logf("%s/%s: no sample call to check the schema with", d, def.Name)
			}
			for _, args := range calls {
				if d == tools.RTC && (def.Name == "edit" || def.Name == "patch") {
					// rtc edits only what the session read.
					for _, p := range []string{"/a.txt", "/sub/s.txt"} {
						if _, err := tb.Call(context.Background(), "read", json.RawMessage(`{"path":"`+p+`"}`)); err != nil {
							t.Fatal(err)
						}
					}
				}
				out, err := tb.Call(context.Background(), def.Name, json.RawMessage(args))
				if err != nil {
					t.Fatalf("%s/%s %s: %v", d, def.Name, args, err)
				}
				var v any
				if err := json.Unmarshal(out, &v); err != nil {
					t.Fatal(err)
				}
				if err := rs.Validate(v); err != nil {
					t.Errorf("%s/%s %s: result %s does not match its output schema: %v", d, def.Name, args, out, err)
				}
			}
		}
	}
}
