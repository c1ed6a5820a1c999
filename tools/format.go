package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Formats lists the vendor shapes [Format] renders.
var Formats = []string{"llmfs", "openai", "openai-chat", "anthropic", "anthropic-builtin", "gemini", "mcp"}

// Format renders defs in the shape a model API takes them, ready to send as they stand:
//
//   - "llmfs" (or ""): the definitions as they are;
//   - "openai": Responses API tools, {type: "function", name, description, parameters,
//     strict: false}; a tool with a [Definition.Grammar] becomes a custom tool,
//     {type: "custom", name, description, format: {type: "grammar", syntax: "lark",
//     definition}}, as Codex offers apply_patch to GPT-5;
//   - "openai-chat": Chat Completions tools, {type: "function", function: {name,
//     description, parameters, strict: false}}, which most OpenAI-compatible servers take;
//     a tool with a grammar is a function of its JSON form there;
//   - "anthropic": {name, description, input_schema} and nothing else;
//   - "anthropic-builtin": as "anthropic", except that a tool Claude has built in (the
//     anthropic dialect's str_replace_based_edit_tool and memory, [Definition.Builtin]) is
//     declared by its type, {type: "text_editor_20250728", name}, so the model gets the
//     schema and prompt it was trained on;
//   - "gemini": {functionDeclarations: [{name, description, parameters}]}, the parameters in
//     the OpenAPI subset Gemini's Schema accepts (upper-case types; type, description, enum,
//     properties, required, items, minimum, minItems only; minItems, an int64 there, as a
//     string);
//   - "mcp": MCP tools as the MCP server lists them, {name, description, inputSchema,
//     outputSchema, annotations}, every hint set (openWorldHint false: a closed set of files).
func Format(defs []Definition, format string) (json.RawMessage, error) {
	var out any
	switch format {
	case "", "llmfs":
		out = defs
	case "openai":
		list := []map[string]any{}
		for _, d := range defs {
			if d.Grammar != "" {
				list = append(list, map[string]any{"type": "custom", "name": d.Name, "description": d.Description,
					"format": map[string]any{"type": "grammar", "syntax": "lark", "definition": d.Grammar}})
				continue
			}
			list = append(list, map[string]any{"type": "function", "name": d.Name, "description": d.Description,
				"parameters": d.InputSchema, "strict": false})
		}
		out = list
	case "openai-chat":
		out = openAIChat(defs)
	case "anthropic", "anthropic-builtin":
		list := []map[string]any{}
		for _, d := range defs {
			if d.Builtin != "" && format == "anthropic-builtin" {
				list = append(list, map[string]any{"type": d.Builtin, "name": d.Name})
				continue
			}
			list = append(list, map[string]any{"name": d.Name, "description": d.Description, "input_schema": d.InputSchema})
		}
		out = list
	case "gemini":
		decls := []map[string]any{}
		for _, d := range defs {
			var s map[string]any
			if err := json.Unmarshal(d.InputSchema, &s); err != nil {
				return nil, err
			}
			decls = append(decls, map[string]any{"name": d.Name, "description": d.Description, "parameters": geminiSchema(s)})
		}
		out = map[string]any{"functionDeclarations": decls}
	case "mcp":
		list := []map[string]any{}
		for _, d := range defs {
			t := map[string]any{"name": d.Name, "description": d.Description, "inputSchema": d.InputSchema,
				"annotations": map[string]any{"readOnlyHint": d.ReadOnly, "destructiveHint": d.Destructive, "idempotentHint": d.Idempotent,
					"openWorldHint": false}}
			if len(d.OutputSchema) > 0 {
				t["outputSchema"] = d.OutputSchema
			}
			list = append(list, t)
		}
		out = list
	default:
		return nil, invalid("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
	}
	return Marshal(out)
}

// geminiKeys are the Schema fields of the Gemini API that llmfs's schemas use.
var geminiKeys = map[string]bool{"type": true, "description": true, "enum": true, "properties": true, "required": true,
	"items": true, "minimum": true, "minItems": true}

// geminiSchema rewrites a JSON Schema into Gemini's Schema: upper-case types, and only the
// fields it knows.
func geminiSchema(s map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range s {
		if !geminiKeys[k] {
			continue
		}
		switch k {
		case "type":
			out[k] = strings.ToUpper(fmt.Sprint(v))
		case "properties":
			props := map[string]any{}
			for name, p := range v.(map[string]any) {
				props[name] = geminiSchema(p.(map[string]any))
			}
			out[k] = props
		case "items":
			out[k] = geminiSchema(v.(map[string]any))
		case "required":
			if r, ok := v.([]any); ok && len(r) == 0 {
				continue
			}
			out[k] = v
		case "minItems":
			// An int64 of Gemini's Schema, which its JSON form writes as a string.
			out[k] = fmt.Sprint(v)
		default:
			out[k] = v
		}
	}
	return out
}
