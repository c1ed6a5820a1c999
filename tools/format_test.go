package tools_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// Issue 17.5: every dialect's definitions render in each vendor's shape as that API
// takes it.
func TestFormatVendorShapes(t *testing.T) {
	name := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`) // OpenAI, Anthropic and Gemini all accept this
	for _, d := range tools.Dialects {
		defs, err := tools.Definitions(d, llmfs.Full)
		if err != nil {
			t.Fatal(err)
		}
		decode := func(format string, v any) {
			t.Helper()
			raw, err := tools.Format(defs, format)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, v); err != nil {
				t.Fatal(err)
			}
		}
		t.Run(string(d)+"/anthropic", func(t *testing.T) {
			var list []map[string]any
			decode("anthropic", &list)
			for _, tool := range list {
				if keys := keysOf(tool); !slices.Equal(keys, []string{"description", "input_schema", "name"}) {
					t.Errorf("keys %v, want exactly name, description, input_schema", keys)
				}
				if !name.MatchString(tool["name"].(string)) {
					t.Errorf("bad name %q", tool["name"])
				}
				checkJSONSchema(t, tool["input_schema"].(map[string]any))
			}
		})
		t.Run(string(d)+"/openai", func(t *testing.T) {
			var list []map[string]any
			decode("openai", &list)
			for _, tool := range list {
				switch tool["type"] {
				case "function":
					if keys := keysOf(tool); !slices.Equal(keys, []string{"description", "name", "parameters", "strict", "type"}) {
						t.Errorf("function tool keys %v", keys)
					}
					checkJSONSchema(t, tool["parameters"].(map[string]any))
				case "custom":
					f := tool["format"].(map[string]any)
					if f["type"] != "grammar" || f["syntax"] != "lark" || f["definition"] == "" {
						t.Errorf("custom tool format %v", f)
					}
				default:
					t.Errorf("tool type %v", tool["type"])
				}
				if !name.MatchString(tool["name"].(string)) {
					t.Errorf("bad name %q", tool["name"])
				}
			}
		})
		t.Run(string(d)+"/gemini", func(t *testing.T) {
			var top map[string][]map[string]any
			decode("gemini", &top)
			if len(top) != 1 || len(top["functionDeclarations"]) != len(defs) {
				t.Fatalf("want {functionDeclarations: [%d]}, got %v", len(defs), keysOf(top))
			}
			for _, fd := range top["functionDeclarations"] {
				if keys := keysOf(fd); !slices.Equal(keys, []string{"description", "name", "parameters"}) {
					t.Errorf("declaration keys %v", keys)
				}
				checkGeminiSchema(t, fd["parameters"].(map[string]any), true)
			}
		})
		t.Run(string(d)+"/mcp", func(t *testing.T) {
			var list []map[string]any
			decode("mcp", &list)
			for _, tool := range list {
				if keys := keysOf(tool); !slices.Equal(keys, []string{"annotations", "description", "inputSchema", "name", "outputSchema"}) {
					t.Errorf("keys %v", keys)
				}
				checkJSONSchema(t, tool["inputSchema"].(map[string]any))
				for k := range tool["annotations"].(map[string]any) {
					if !slices.Contains([]string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}, k) {
						t.Errorf("annotation %q", k)
					}
				}
			}
		})
	}
	if _, err := tools.Format(nil, "cohere"); llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
		t.Errorf("unknown format: %v", err)
	}
}

func keysOf[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// checkJSONSchema checks a tool's input schema: an object with properties, as every
// vendor requires of the top level.
func checkJSONSchema(t *testing.T, s map[string]any) {
	t.Helper()
	if s["type"] != "object" {
		t.Errorf("schema type %v, want object", s["type"])
	}
	if _, ok := s["properties"].(map[string]any); !ok {
		t.Errorf("schema without properties: %v", s)
	}
}

// checkGeminiSchema checks a Schema against the fields and types the Gemini API defines.
func checkGeminiSchema(t *testing.T, s map[string]any, top bool) {
	t.Helper()
	allowed := []string{"type", "format", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required",
		"minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering", "default",
		"items", "minimum", "maximum", "title"}
	for k := range s {
		if !slices.Contains(allowed, k) {
			t.Errorf("Gemini Schema has no field %q", k)
		}
	}
	if ty, _ := s["type"].(string); !slices.Contains([]string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}, ty) {
		t.Errorf("Gemini type %v", s["type"])
	}
	if top && s["type"] != "OBJECT" {
		t.Errorf("parameters type %v, want OBJECT", s["type"])
	}
	if p, ok := s["properties"].(map[string]any); ok {
		for _, v := range p {
			checkGeminiSchema(t, v.(map[string]any), false)
		}
	}
	if it, ok := s["items"].(map[string]any); ok {
		checkGeminiSchema(t, it, false)
	}
}
