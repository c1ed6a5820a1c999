package tools

import "encoding/json"

// Output schemas: each tool's entry in its dialect's table carries the JSON Schema of its
// result object (tool.output), so a tool added to any dialect declares its result where
// its parameters are declared, and [Definitions] hands it out as OutputSchema (MCP's
// outputSchema). The objects are closed (additionalProperties false): a field added to a
// result without its schema fails the tests that validate results against these.

// field is one property of a result object.
type field struct {
	name     string
	schema   map[string]any
	required bool
}

func must(name string, s map[string]any) field { return field{name: name, schema: s, required: true} }
func may(name string, s map[string]any) field  { return field{name: name, schema: s} }

func outString(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}
func outInt(desc string) map[string]any {
	return map[string]any{"type": "integer", "minimum": 0, "description": desc}
}
func outBool(desc string) map[string]any {
	return map[string]any{"type": "boolean", "description": desc}
}

// outObject is a closed object schema of fields.
func outObject(fields ...field) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, f := range fields {
		props[f.name] = f.schema
		if f.required {
			required = append(required, f.name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// readNotes are the fields that say a read is partial or altered (addReadNotes).
var readNotes = []field{
	may("truncated", outBool("More lines follow; continue at next_offset.")),
	may("next_offset", outInt("First line of the next page.")),
	may("cut_lines", outInt("Lines cut short for being too long.")),
	may("invalid_utf8", outBool("Bytes that are not UTF-8 were replaced with U+FFFD.")),
}

var entriesField = must("entries", map[string]any{
	"type":        "array",
	"description": "The directory's entries, sorted by name.",
	"items": outObject(
		must("name", outString("Name of the entry.")),
		must("type", map[string]any{"type": "string", "enum": []string{"file", "directory"}, "description": "file or directory."}),
		must("size", outInt("Size in bytes; 0 for a directory.")),
	),
})

var (
	pathOut     = outObject(must("path", outString("Absolute path.")))
	moveOut     = outObject(must("source", outString("Absolute path of the source.")), must("destination", outString("Absolute path of the destination.")))
	editOut     = outObject(must("path", outString("Absolute path.")), must("replacements", outInt("Number of replacements made.")), must("diff", outString("Unified diff of the change.")))
	listOut     = outObject(entriesField)
	rtcListOut  = outObject(must("path", outString("The directory listed.")), entriesField)
	rtcWriteOut = outObject(must("path", outString("The file written.")), must("bytes", outInt("Bytes written.")), must("created", outBool("The file did not exist before.")))
	readOut     = outObject(append([]field{
		must("content", outString("The lines read, line endings kept.")),
		must("total_lines", outInt("Lines in the whole file.")),
		may("note", outString("Why no lines came back (an offset past the end).")),
	}, readNotes...)...)
	rtcReadOut = outObject(append([]field{
		must("path", outString("The file read.")),
		must("content", outString("The lines read, numbered like cat -n, with notes.")),
		must("total_lines", outInt("Lines in the whole file.")),
	}, readNotes...)...)
	findOut = outObject(
		must("files", map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Matching paths, newest first."}),
		must("count", outInt("Number of paths returned.")),
		may("truncated", outBool("More paths matched than head_limit.")),
	)
	grepOut = outObject(
		must("mode", map[string]any{"type": "string", "enum": []string{"files_with_matches", "content", "count"}, "description": "The output mode."}),
		must("output", outString("The results, one entry a line.")),
		must("count", outInt("Number of entries returned.")),
		may("truncated", outBool("More entries follow; continue at next_offset.")),
		may("next_offset", outInt("The offset of the next page.")),
	)
)

// outputSchema renders a result schema; nil for a tool that declares none.
func outputSchema(s map[string]any) json.RawMessage {
	if s == nil {
		return nil
	}
	b, _ := Marshal(s)
	return b
}
