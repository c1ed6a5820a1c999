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
func readNotes() []field {
	return []field{
		may("truncated", outBool("More lines follow; continue at next_offset.")),
		may("next_offset", outInt("First line of the next page.")),
		may("cut_lines", outInt("Lines cut for length.")),
		may("invalid_utf8", outBool("Bytes not UTF-8 became U+FFFD.")),
	}
}

func entriesField() field {
	return must("entries", map[string]any{
		"type":        "array",
		"description": "The directory's entries, sorted by name.",
		"items": outObject(
			must("name", outString("Name.")),
			must("type", map[string]any{"type": "string", "enum": []string{"file", "directory"}}),
			must("size", outInt("Bytes; 0 for a directory.")),
		),
	})
}

func pathOut() map[string]any { return outObject(must("path", outString("Absolute path."))) }

func moveOut() map[string]any {
	return outObject(must("source", outString("Absolute path of the source.")), must("destination", outString("Absolute path of the destination.")))
}

func editOut() map[string]any {
	return outObject(must("path", outString("Absolute path.")), must("replacements", outInt("Number of replacements made.")), must("diff", outString("Unified diff of the change.")), may("matched", outString("How the old text matched when not exactly: whitespace, indent, unicode or prefix.")))
}

func listOut() map[string]any { return outObject(entriesField()) }

// agentoolListOut is directory_list's: entries, or names with names_only.
func agentoolListOut() map[string]any {
	return anyOfRequired(outObject(append([]field{may(entriesField().name, entriesField().schema), may("names", map[string]any{
		"type":        "array",
		"description": "With names_only: the entries' names, sorted, directories ending in '/'.",
		"items":       map[string]any{"type": "string"},
	})}, pageFields()...)...), []string{"entries"}, []string{"names"})
}

func rtcListOut() map[string]any {
	return outObject(append([]field{must("path", outString("The directory listed.")), entriesField()}, pageFields()...)...)
}

func rtcWriteOut() map[string]any {
	return outObject(must("path", outString("The file written.")), must("bytes", outInt("Bytes written.")), must("created", outBool("The file did not exist before.")))
}

func readOut() map[string]any {
	return textOrImage([]string{"content", "total_lines"}, append(append([]field{
		may("path", outString("Absolute path (images).")),
		may("content", outString("The lines read, line endings kept.")),
		may("total_lines", outInt("Lines in the whole file.")),
		may("note", outString("Why no lines came back (an offset past the end).")),
	}, imageFields()...), readNotes()...)...)
}

func rtcReadOut() map[string]any {
	return textOrImage([]string{"path", "content", "total_lines"}, append(append([]field{
		may("path", outString("The file read.")),
		may("content", outString("The lines read, numbered like cat -n, with notes.")),
		may("total_lines", outInt("Lines in the whole file.")),
	}, imageFields()...), readNotes()...)...)
}

func findOut() map[string]any {
	return outObject(
		must("files", map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Matching paths, newest first."}),
		must("count", outInt("Number of paths returned.")),
		may("truncated", outBool("More paths matched than head_limit.")),
	)
}

func grepOut() map[string]any {
	return outObject(
		must("mode", map[string]any{"type": "string", "enum": []string{"files_with_matches", "content", "count"}, "description": "The output mode."}),
		must("output", outString("The results, one entry a line.")),
		must("count", outInt("Number of entries returned.")),
		may("truncated", outBool("More entries follow; continue at next_offset.")),
		may("next_offset", outInt("The offset of the next page.")),
		may("binary", outBool("The file named was binary and not searched.")),
		may("note", outString("Why the result stops short, or why the file named was not searched.")),
	)
}

// The codex, anthropic and gemini dialects' results, and the patch tool's.

func patchOut() map[string]any {
	return outObject(
		must("format", map[string]any{"type": "string", "enum": []string{"v4a", "unified", "search-replace"}, "description": "The patch format read."}),
		must("files", map[string]any{"type": "array", "description": "The files the patch changed, in the order it names them.", "items": outObject(
			must("path", outString("The file's path.")),
			must("op", map[string]any{"type": "string", "enum": []string{"add", "update", "delete", "rename"}, "description": "What happened to the file."}),
			may("to", outString("Where a rename took the file.")),
			may("hunks", outInt("Hunks applied.")),
			may("matched", map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "How each hunk matched: exact, whitespace, indent, unicode or prefix."}),
		)}),
		must("diff", outString("Unified diff of every change.")),
	)
}

// imageFields are what a read of an image returns instead of text (image.go).
func imageFields() []field {
	return []field{
		may("type", map[string]any{"type": "string", "enum": []string{"file", "directory", "image"}}),
		may("mime_type", outString("The image's MIME type.")),
		may("data", outString("The image, base64 (not in MCP structured content, which has it as image content).")),
		may("bytes", outInt("Size in bytes.")),
	}
}

func writeFields() []field {
	return []field{
		may("created", outBool("The file did not exist before.")),
	}
}

func editFields() []field {
	return []field{
		may("replacements", outInt("Number of replacements made.")),
		may("diff", outString("Unified diff of the change.")),
		may("matched", outString("How the old text matched: exact, whitespace, indent, unicode or prefix.")),
	}
}

// codexReadOut and geminiReadOut are text reads, or an image.
func codexReadOut() map[string]any {
	return textOrImage([]string{"content", "total_lines"}, append(append([]field{
		may("path", outString("Absolute path (images).")),
		may("content", outString("The lines read, each prefixed with 'L<n>: '.")),
		may("total_lines", outInt("Lines in the whole file.")),
	}, imageFields()...), readNotes()...)...)
}

func geminiReadOut() map[string]any {
	return textOrImage([]string{"content", "total_lines"}, append(append([]field{
		may("path", outString("Absolute path (images).")),
		may("content", outString("The lines read, line endings kept.")),
		may("total_lines", outInt("Lines in the whole file.")),
		may("note", outString("Which lines these are and where to read on.")),
	}, imageFields()...), readNotes()...)...)
}

func codexListOut() map[string]any {
	return outObject(
		must("total_entries", outInt("Entries in the whole listing.")),
		must("entries", outString("One entry a line, indented per level, directories ending in '/'.")),
		may("truncated", outBool("More entries follow; continue at next_offset.")),
		may("next_offset", outInt("First entry of the next page.")),
	)
}

// editorOut is every command's result of the anthropic editor and memory tools.
func editorOut() map[string]any {
	return outObject(append(append(append(append([]field{
		may("path", outString("The file or directory.")),
		may("content", outString("What view shows: numbered lines, or the directory tree.")),
		may("total_lines", outInt("Lines in the whole file.")),
		may("undone", outBool("undo_edit took the last edit back.")),
		may("deleted", outBool("The file was deleted.")),
		may("source", outString("rename: the old path.")),
		may("destination", outString("rename: the new path.")),
	}, imageFields()...), writeFields()...), editFields()...), readNotes()...)...)
}

func geminiWriteOut() map[string]any {
	return outObject(must("path", outString("Absolute path.")), must("bytes", outInt("Bytes written.")), must("created", outBool("The file did not exist before.")))
}

func geminiEditOut() map[string]any {
	return outObject(must("path", outString("Absolute path.")), must("replacements", outInt("Number of replacements made.")), must("diff", outString("Unified diff of the change.")), must("matched", outString("How the old text matched: exact, whitespace, indent, unicode or prefix.")))
}

func geminiGrepOut() map[string]any {
	return outObject(
		must("output", outString("The matching lines, path:line:text.")),
		must("count", outInt("Number of entries returned.")),
		may("truncated", outBool("More matches than shown.")),
	)
}

func readManyOut() map[string]any {
	return outObject(
		must("content", outString("Each file as '--- path ---' then its content.")),
		must("files", map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "The files read."}),
		may("skipped", outInt("Files left out past the 100-file cap.")),
		may("images", map[string]any{"type": "array", "description": "The images among the files, in the order read.", "items": outObject(
			must("path", outString("Absolute path.")),
			must("type", map[string]any{"type": "string", "enum": []string{"image"}, "description": "image."}),
			must("mime_type", outString("The image's MIME type.")),
			may("data", outString("The image, base64 (left out where the image travels on its own, as MCP image content).")),
			must("bytes", outInt("Size in bytes.")),
		)}),
	)
}

// imageRequired are the fields an image read always has (the base64 data is left out of
// MCP structured content, which sends the image as image content beside it).
var imageRequired = []string{"path", "type", "mime_type", "bytes"}

// textOrImage is the closed object of a read's fields, which holds either the text fields
// named in text or an image's fields.
func textOrImage(text []string, fields ...field) map[string]any {
	return anyOfRequired(outObject(fields...), text, imageRequired)
}

// anyOfRequired makes o require one of the sets of fields.
func anyOfRequired(o map[string]any, sets ...[]string) map[string]any {
	var alts []any
	for _, s := range sets {
		alts = append(alts, map[string]any{"required": s})
	}
	o["anyOf"] = alts
	return o
}

// outputSchema renders a result schema; nil for a tool that declares none.
func outputSchema(s map[string]any) json.RawMessage {
	if s == nil {
		return nil
	}
	b, _ := Marshal(s)
	return b
}
