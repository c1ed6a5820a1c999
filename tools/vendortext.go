package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A textRenderer renders a tool's result object as the text the vendor's own tool shows
// its model: Codex's read_file prints 'L<n>: ' lines, Claude's text editor numbered lines,
// Gemini CLI's read_file the plain content, and their edits a short line, not a diff in
// JSON. The result object itself stays [Result.JSON] (MCP's structured content), so a
// client that wants fields still has them.
type textRenderer func(r result) string

// vendorText holds the renderers, by dialect and tool name. A tool without one shows its
// model the JSON, as agentool does.
var vendorText = map[Dialect]map[string]textRenderer{
	Codex: {
		"read_file":   func(r result) string { return readText(r, r.str("content"), "offset") },
		"list_dir":    codexListText,
		"grep_files":  filesText,
		"apply_patch": patchText,
		"patch":       patchText,
	},
	Anthropic: {
		"str_replace_based_edit_tool": editorText,
		"memory":                      editorText,
		"patch":                       patchText,
	},
	Gemini: {
		"read_file":           geminiReadText,
		"write_file":          writeText,
		"replace":             geminiEditText,
		"list_directory":      geminiListText,
		"glob":                filesText,
		"search_file_content": geminiGrepText,
		"grep_search":         geminiGrepText,
		"read_many_files":     readManyText,
		"patch":               patchText,
	},
}

// renderText is the text of the JSON result object b of tool name in dialect d, and
// false when the tool has no renderer.
func renderText(d Dialect, name string, b []byte) (string, bool) {
	render := vendorText[d][name]
	if render == nil {
		return "", false
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		return "", false // not an object: show the JSON
	}
	return render(r), true
}

// result is a decoded result object.
type result map[string]any

func (r result) str(k string) string { s, _ := r[k].(string); return s }
func (r result) num(k string) int    { f, _ := r[k].(float64); return int(f) }
func (r result) flag(k string) bool  { b, _ := r[k].(bool); return b }
func (r result) has(k string) bool   { _, ok := r[k]; return ok }

// count is "1 line" or "3 lines".
func count(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

// readText is a read's lines and, after them, what else the model must know: that the
// file is empty, that lines were cut or bytes replaced, where to continue (with the
// parameter next).
func readText(r result, content, next string) string {
	var sb strings.Builder
	total := r.num("total_lines")
	switch {
	case total == 0:
		sb.WriteString("(the file is empty)\n")
	case content == "":
		fmt.Fprintf(&sb, "(no lines here; the file has %s)\n", count(total, "line", "lines"))
	default:
		sb.WriteString(content)
		if !strings.HasSuffix(content, "\n") {
			sb.WriteByte('\n')
		}
	}
	if n := r.num("cut_lines"); n > 0 {
		fmt.Fprintf(&sb, "(%s cut short for length)\n", count(n, "line", "lines"))
	}
	if r.flag("invalid_utf8") {
		sb.WriteString("(bytes that are not UTF-8 were replaced with U+FFFD)\n")
	}
	if r.flag("truncated") {
		fmt.Fprintf(&sb, "(the file has %s; more follow: continue with %s=%d)\n", count(total, "line", "lines"), next, r.num("next_offset"))
	}
	return sb.String()
}

// geminiReadText puts the note on which lines these are first, as Gemini CLI does, then
// the content as it is.
func geminiReadText(r result) string {
	note := r.str("note")
	if note == "" {
		return readText(r, r.str("content"), "start_line")
	}
	delete(r, "truncated") // the note says where to read on
	return "(" + note + ")\n\n" + readText(r, r.str("content"), "start_line")
}

func codexListText(r result) string {
	entries := r.str("entries")
	if note := r.str("note"); note != "" {
		return "(" + note + ")\n"
	}
	if entries == "" {
		return "(the directory is empty)\n"
	}
	text := entries + "\n"
	if r.flag("truncated") {
		text += fmt.Sprintf("(%d entries in all; more follow: continue with offset=%d)\n", r.num("total_entries"), r.num("next_offset"))
	}
	return text
}

// filesText is a list of paths, one a line.
func filesText(r result) string {
	files, _ := r["files"].([]any)
	if len(files) == 0 {
		return "No files matched.\n"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s, newest first:\n", count(len(files), "file", "files"))
	for _, f := range files {
		fmt.Fprintf(&sb, "%v\n", f)
	}
	if r.flag("truncated") {
		sb.WriteString("(more files matched than shown)\n")
	}
	return sb.String()
}

func geminiGrepText(r result) string {
	n := r.num("count")
	if n == 0 {
		return "No matches found.\n"
	}
	text := count(n, "match", "matches") + " (path:line:text):\n" + strings.TrimSuffix(r.str("output"), "\n") + "\n"
	if r.flag("truncated") {
		text += "(more matches than shown; narrow the pattern, include or dir_path)\n"
	}
	return text
}

func geminiListText(r result) string {
	entries, _ := r["entries"].([]any)
	if len(entries) == 0 {
		return "(the directory is empty)\n"
	}
	var sb strings.Builder
	for _, e := range entries {
		e, _ := e.(map[string]any)
		name, _ := e["name"].(string)
		if e["type"] == "directory" {
			sb.WriteString("[DIR] ")
		}
		sb.WriteString(nameLine(name) + "\n")
	}
	return sb.String()
}

func readManyText(r result) string {
	text := r.str("content")
	if n := r.num("skipped"); n > 0 {
		text += fmt.Sprintf("(%s left out past the cap of %d)\n", count(n, "file", "files"), maxManyFiles)
	}
	return text
}

// writeText is a write's one line.
func writeText(r result) string {
	if r.flag("created") {
		return fmt.Sprintf("Created %s (%s).\n", r.str("path"), count(r.num("bytes"), "byte", "bytes"))
	}
	return fmt.Sprintf("Wrote %s (%s), replacing what it held.\n", r.str("path"), count(r.num("bytes"), "byte", "bytes"))
}

// editLine is an edit's one line: where, how many, and how it matched when not exactly.
func editLine(r result) string {
	line := fmt.Sprintf("Edited %s: %s", r.str("path"), count(r.num("replacements"), "replacement", "replacements"))
	if m := r.str("matched"); m != "" && m != "exact" {
		line += fmt.Sprintf(" (the old text matched with %s differences forgiven)", m)
	}
	return line + ".\n"
}

// geminiEditText is the line alone, as Gemini CLI's replace answers.
func geminiEditText(r result) string { return editLine(r) }

// maxDiffLines bounds the diff an editor result shows; the whole is in the JSON.
const maxDiffLines = 40

// shortDiff is diff, or its first lines and how many more there are.
func shortDiff(diff string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(diff, "\n"), "\n")
	if diff == "" {
		return ""
	}
	if len(lines) <= maxDiffLines {
		return strings.Join(lines, "") + "\n"
	}
	return strings.Join(lines[:maxDiffLines], "") + fmt.Sprintf("(%d more diff lines)\n", len(lines)-maxDiffLines)
}

// editorText answers each command of Claude's editor and memory tools: view shows the
// numbered lines or the tree, a change a line and a short diff of it.
func editorText(r result) string {
	p := r.str("path")
	switch {
	case r.has("content") && r.str("type") == "directory":
		if r.str("content") == "" {
			return fmt.Sprintf("%s is empty.\n", p)
		}
		return fmt.Sprintf("Files and directories in %s, two levels deep, hidden ones left out:\n%s\n", p, r.str("content"))
	case r.has("content"):
		return r.str("content")
	case r.flag("undone"):
		return fmt.Sprintf("Took back the last edit of %s.\n", p) + shortDiff(r.str("diff"))
	case r.flag("deleted"):
		return fmt.Sprintf("Deleted %s.\n", p)
	case r.has("source"):
		return fmt.Sprintf("Renamed %s to %s.\n", r.str("source"), r.str("destination"))
	case r.has("replacements"):
		return editLine(r) + shortDiff(r.str("diff"))
	case r.has("bytes"):
		return writeText(r)
	}
	b, _ := Marshal(r)
	return string(b)
}

// patchText lists the files a patch changed, A, M or D before each as Codex's apply_patch
// does, with how a hunk matched when not exactly.
func patchText(r result) string {
	var sb strings.Builder
	sb.WriteString("Patch applied. Files changed:\n")
	files, _ := r["files"].([]any)
	for _, f := range files {
		f, _ := f.(map[string]any)
		op, _ := f["op"].(string)
		path, _ := f["path"].(string)
		letter := map[string]string{"add": "A", "update": "M", "delete": "D"}[op]
		sb.WriteString(letter + " " + nameLine(path))
		matched, _ := f["matched"].([]any)
		for i, m := range matched {
			if m != "exact" {
				fmt.Fprintf(&sb, " (hunk %d matched with %v differences forgiven)", i+1, m)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
