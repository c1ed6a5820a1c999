//go:build !js && !wasip1

package tools_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// compileSchema compiles the JSON Schema in file; ref, when set, names a definition in it.
func compileSchema(t *testing.T, file, ref string) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	url := "file:///" + filepath.Base(file)
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url + ref)
	if err != nil {
		t.Fatalf("%s%s: %v", file, ref, err)
	}
	return sch
}

// Issue 17.5: each --format shape of every dialect validates against the vendor's
// definition, as testdata/vendor restates it from the vendor's published types or
// schema (each file says where from): OpenAI function and custom tools, Anthropic tools
// with nothing but what the API defines, Gemini function declarations whose Schema holds
// only Gemini's fields (no additionalProperties or $schema), MCP tools of 2025-11-25.
func TestFormatVendorSchemas(t *testing.T) {
	for _, format := range []string{"openai", "anthropic", "gemini", "mcp"} {
		sch := compileSchema(t, filepath.Join("testdata/vendor", format+".schema.json"), "")
		for _, d := range tools.Dialects {
			for _, mode := range []llmfs.Mode{llmfs.ReadOnly, llmfs.Full} {
				defs, err := tools.Definitions(d, mode)
				if err != nil {
					t.Fatal(err)
				}
				raw, err := tools.Format(defs, format)
				if err != nil {
					t.Fatal(err)
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Errorf("%s/%s (%s): %v", d, format, mode, err)
				}
			}
		}
	}
}

// The vendor schemas refuse what each API refuses, so the test above can fail.
func TestVendorSchemasRefuse(t *testing.T) {
	for _, c := range []struct{ format, doc string }{
		{"anthropic", `[{"name":"a","description":"d","input_schema":{"type":"object"},"annotations":{}}]`},
		{"anthropic", `[{"name":"a","input_schema":{"type":"string"}}]`},
		{"openai", `[{"type":"function","name":"a","parameters":{"type":"object"}}]`},
		{"openai", `[{"type":"function","name":"a b","parameters":{"type":"object"},"strict":false}]`},
		{"openai", `[{"type":"custom","name":"a","format":{"type":"grammar","syntax":"ebnf","definition":"x"}}]`},
		{"gemini", `{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","additionalProperties":false}}]}`},
		{"gemini", `{"functionDeclarations":[{"name":"a","parameters":{"type":"object"}}]}`},
		{"gemini", `{"functionDeclarations":[{"name":"a","parameters":{"type":"ARRAY","minItems":1}}]}`},
		{"gemini", `{"functionDeclarations":[{"name":"a","parameters":{"$schema":"x","type":"OBJECT"}}]}`},
		{"mcp", `[{"name":"a","inputSchema":{"type":"array"}}]`},
		{"mcp", `[{"name":"a"}]`},
		{"mcp", `[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}]`},
	} {
		sch := compileSchema(t, filepath.Join("testdata/vendor", c.format+".schema.json"), "")
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(c.doc)))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("%s accepts %s", c.format, c.doc)
		}
	}
}

// Issue 17.5: the mcp shape decodes into the go-sdk's Tool with no field left over, and,
// when LLMFS_MCP_SCHEMA names the specification's schema.json (schema/2025-11-25 of
// modelcontextprotocol/modelcontextprotocol, not shipped here), each tool validates against
// its Tool definition itself.
func TestFormatMCPSpec(t *testing.T) {
	var spec *jsonschema.Schema
	if f := os.Getenv("LLMFS_MCP_SCHEMA"); f != "" {
		spec = compileSchema(t, f, "#/$defs/Tool")
	}
	for _, d := range tools.Dialects {
		defs, err := tools.Definitions(d, llmfs.Full)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := tools.Format(defs, "mcp")
		if err != nil {
			t.Fatal(err)
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			t.Fatal(err)
		}
		for _, one := range list {
			dec := json.NewDecoder(bytes.NewReader(one))
			dec.DisallowUnknownFields()
			var tool mcp.Tool
			if err := dec.Decode(&tool); err != nil {
				t.Errorf("%s: %s: not a go-sdk Tool: %v", d, one, err)
			}
			if spec != nil {
				inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(one))
				if err := spec.Validate(inst); err != nil {
					t.Errorf("%s: %s: %v", d, tool.Name, err)
				}
			}
		}
	}
	if spec == nil {
		t.Log("LLMFS_MCP_SCHEMA is not set: checked against the go-sdk's Tool only")
	}
}
