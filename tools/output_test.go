package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// outputCalls are calls whose results must match their tool's output schema, by tool
// name; several per tool to reach the optional fields (truncated, next_offset, ...).
var outputCalls = map[string][]string{
	"file_read":        {`{"path":"a.txt"}`, `{"path":"a.txt","offset":2,"limit":1}`, `{"path":"a.txt","offset":9}`, `{"path":"a.txt","limit":0}`},
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
	"read":             {`{"path":"/a.txt"}`, `{"path":"/a.txt","offset":2,"limit":1}`},
	"write":            {`{"path":"/new/w.txt","content":"x"}`},
	"edit":             {`{"path":"/a.txt","old_string":"two","new_string":"TWO"}`},
	"find":             {`{"pattern":"*.txt"}`},
	"grep":             {`{"pattern":"o","output_mode":"content"}`},
}

// TestOutputSchemas walks every tool of every dialect: each must declare a closed output
// schema, and each result of the sample calls must match it.
func TestOutputSchemas(t *testing.T) {
	for _, d := range tools.Dialects {
		defs, err := tools.Definitions(d, llmfs.Full)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for name, content := range map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "foo\n", "gone.txt": "x", "m.txt": "m", "sub/s.txt": "so\n"} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ws, err := llmfs.Open(&llmfs.Options{Root: dir})
		if err != nil {
			t.Fatal(err)
		}
		tb, err := tools.New(ws, d)
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
			calls := outputCalls[def.Name]
			if len(calls) == 0 {
				t.Logf("%s/%s: no sample call to check the schema with", d, def.Name)
			}
			for _, args := range calls {
				if d == tools.RTC && def.Name == "edit" {
					if _, err := tb.Call(context.Background(), "read", json.RawMessage(`{"path":"/a.txt"}`)); err != nil {
						t.Fatal(err)
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
