package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

func str(name, desc string, required bool) param {
	return param{Param: sj.Param{Name: name, Kind: sj.String, Required: required}, description: desc}
}

func integer(name, desc string, minimum int64) param {
	return param{Param: sj.Param{Name: name, Kind: sj.Integer, Min: minimum}, description: desc}
}

func boolean(name, desc string) param {
	return param{Param: sj.Param{Name: name, Kind: sj.Boolean}, description: desc}
}

func enum(name, desc string, values ...string) param {
	return param{Param: sj.Param{Name: name, Kind: sj.String, Enum: values}, description: desc}
}

const pathDesc = "Path of the file, absolute or relative to the workspace root."

// agentoolTools is the agentool dialect (seed 002) plus llmfs's additions.
var agentoolTools = []tool{
	{
		name: "file_read", output: readOut, op: llmfs.OpRead, readOnly: true, idempotent: true,
		description: "Read a text file. Returns its content (line endings kept) and total_lines, the number of lines in the whole file. " +
			"Lines over 2000 characters are cut and marked; cut_lines counts them. Page through large files with offset (first line, from 1) " +
			"and limit (number of lines). Without limit at most 2000 lines or 256 KiB are returned; then truncated is true and next_offset " +
			"says where to continue. A PNG, JPEG, GIF or WebP image (up to 5 MiB) comes back as an image; other binary files are refused.",
		params: []param{
			str("path", pathDesc, true),
			integer("offset", "First line to read, counting from 1.", 1),
			integer("limit", "Maximum number of lines to read (0 or more).", 0),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			img, res, err := tb.read(ctx, a)
			if img != nil || err != nil {
				return img, err
			}
			out := map[string]any{"content": res.Content, "total_lines": res.TotalLines}
			addReadNotes(out, res)
			if note := res.PastEndNote(); note != "" {
				out["note"] = note // rtc has it among the numbered lines
			}
			return out, nil
		},
	},
	{
		name: "file_write", output: pathOut, op: llmfs.OpWrite, destructive: true,
		description: "Write a file, creating it and any missing parent directories. mode is overwrite (default: replace the content), " +
			"append (add to the end) or create (fail with FILE_ALREADY_EXISTS if the file exists). The write is atomic. Returns the absolute path.",
		params: []param{
			str("path", pathDesc, true),
			str("content", "The text to write.", true),
			enum("mode", "overwrite (default), append or create.", "overwrite", "append", "create"),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			if err := tb.checkWriteText(ctx, a.String("path", ""), a.String("content", ""), "content"); err != nil {
				return nil, err
			}
			res, err := tb.ws.Write(ctx, a.String("path", ""), a.String("content", ""), llmfs.WriteOptions{Mode: llmfs.WriteMode(a.String("mode", ""))})
			if err != nil {
				return nil, err
			}
			return map[string]any{"path": res.Path}, nil
		},
	},
	{
		name: "file_edit", output: editOut, op: llmfs.OpEdit, destructive: true,
		description: "Replace exact text in a file. old_text must match the file exactly (whitespace and indentation included) and occur exactly once, " +
			"unless replace_all is true; it must not be empty and must differ from new_text. To make several changes at once, all or nothing, " +
			"pass edits: [{old_text, new_text, replace_all?}, ...] instead. Returns the path, the number of replacements and a short diff.",
		params: []param{
			str("path", pathDesc, true),
			str("old_text", "The exact text to replace.", false),
			str("new_text", "The text to put in its place.", false),
			boolean("replace_all", "Replace every occurrence instead of requiring exactly one."),
			{Param: sj.Param{Name: "edits", Kind: sj.Array}, description: "Several replacements applied in order, all or nothing (instead of old_text/new_text).",
				items: []param{
					str("old_text", "The exact text to replace.", true),
					str("new_text", "The text to put in its place.", true),
					boolean("replace_all", "Replace every occurrence."),
				}},
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			edits, err := editsOf(a, "old_text", "new_text")
			if err != nil {
				return nil, err
			}
			for i, e := range edits {
				what := "new_text"
				if len(edits) > 1 {
					what = fmt.Sprintf("edit %d of %d: new_text", i+1, len(edits))
				}
				if err := checkEditText(a.String("path", ""), e.Old, e.New, what); err != nil {
					return nil, err
				}
			}
			res, err := tb.ws.EditMany(ctx, a.String("path", ""), edits)
			if err != nil {
				return nil, err
			}
			return editResult(res), nil
		},
	},
	{
		name: "directory_create", output: pathOut, op: llmfs.OpMkdir, idempotent: true,
		description: "Create a directory and any missing parents. An existing directory is not an error. Returns the absolute path.",
		params:      []param{str("path", "Path of the directory.", true)},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			p, err := tb.ws.Mkdir(ctx, a.String("path", ""))
			if err != nil {
				return nil, err
			}
			return map[string]any{"path": p}, nil
		},
	},
	{
		name: "directory_list", output: agentoolListOut, op: llmfs.OpList, readOnly: true, idempotent: true,
		description: "List a directory (default the workspace root): entries sorted by name, each with name, type (file or directory) and size in bytes (0 for directories). " +
			"With names_only, just the sorted names in names, directories ending in '/': quicker for a big directory. " +
			"In the text form a name that would not read as one line (a control character such as a newline, a line separator, a bidirectional override, bytes that are not UTF-8) or that starts with a quote comes quoted, with backslash escapes (\\n for a newline).",
		params: []param{
			str("path", "Path of the directory, absolute or relative to the workspace root; default the root.", false),
			boolean("names_only", "Return only the names (directories ending in '/'), without types and sizes."),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			if a.Bool("names_only", false) {
				// No sizes: the listing stats no entry (llmfs.Workspace.ListNames).
				entries, err := tb.ws.ListNames(ctx, a.String("path", "."))
				if err != nil {
					return nil, err
				}
				names := make([]string, len(entries))
				var text strings.Builder
				size := len(emptyDirNote) + 1
				for _, e := range entries {
					size += len(e.Name) + 2
				}
				text.Grow(size) // most names need no quotes
				for i, e := range entries {
					names[i] = e.Name
					text.WriteString(nameLine(e.Name))
					if e.Type == llmfs.TypeDirectory {
						names[i] += "/"
						text.WriteByte('/') // outside the quotes, as the trees of the other dialects
					}
					text.WriteByte('\n')
				}
				if len(names) == 0 {
					text.WriteString(emptyDirNote + "\n")
				}
				// The model reads the names one a line, as ls prints them: a third fewer
				// bytes than their JSON, whose quotes the text would escape once more.
				return textResult{obj: map[string]any{"names": names}, text: text.String()}, nil
			}
			entries, err := tb.ws.List(ctx, a.String("path", "."))
			if err != nil {
				return nil, err
			}
			return map[string]any{"entries": entries}, nil
		},
	},
	{
		name: "file_delete", output: pathOut, op: llmfs.OpDelete, destructive: true,
		description: "Delete a file. Directories are refused with INVALID_PATH. Returns the absolute path of the deleted file.",
		params:      []param{str("path", pathDesc, true)},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			p, err := tb.ws.Delete(ctx, a.String("path", ""))
			if err != nil {
				return nil, err
			}
			return map[string]any{"path": p}, nil
		},
	},
	{
		name: "file_move", output: moveOut, op: llmfs.OpMove, destructive: true,
		description: "Move or rename a file. Fails with FILE_ALREADY_EXISTS if the destination exists; missing parent directories of the destination are created.",
		params:      []param{str("source", "Path of the file to move.", true), str("destination", "New path of the file.", true)},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			return tb.ws.Move(ctx, a.String("source", ""), a.String("destination", ""))
		},
	},
	{
		name: "file_copy", output: moveOut, op: llmfs.OpCopy,
		description: "Copy a file. Fails with FILE_ALREADY_EXISTS if the destination exists; missing parent directories of the destination are created.",
		params:      []param{str("source", "Path of the file to copy.", true), str("destination", "Path of the copy.", true)},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			return tb.ws.Copy(ctx, a.String("source", ""), a.String("destination", ""))
		},
	},
	fileFind,
	fileGrep,
	patchTool("File for SEARCH/REPLACE blocks or hunks that name none, absolute or relative to the workspace root."),
}

// read runs a read tool's call. An explicit "limit": 0 asks for no lines: the file is still
// checked and counted, so the result carries total_lines and nothing else.
func (tb *Toolbox) read(ctx context.Context, a sj.Object) (any, *llmfs.ReadResult, error) {
	opts := llmfs.ReadOptions{Offset: int(a.Int("offset", 1)), Limit: int(a.Int("limit", llmfs.NoLimit))}
	none := a.Has("limit") && opts.Limit == 0
	if none {
		opts.Limit = 1
	}
	img, res, err := tb.readAny(ctx, a.String("path", ""), opts)
	if err != nil || img != nil || !none {
		return img, res, err
	}
	res.Content, res.Lines, res.Truncated, res.NextOffset, res.CutLines, res.InvalidUTF8 = "", 0, false, 0, 0, false
	return nil, res, nil
}

// addReadNotes adds the fields that say a read is partial or altered; they are absent from
// a plain whole read, so its result is exactly {content, total_lines}.
func addReadNotes(out map[string]any, res *llmfs.ReadResult) {
	if res.Truncated {
		out["truncated"] = true
		out["next_offset"] = res.NextOffset
	}
	if res.CutLines > 0 {
		out["cut_lines"] = res.CutLines
	}
	if res.InvalidUTF8 {
		out["invalid_utf8"] = true
	}
}

// editsOf reads either the single old/new pair or the edits array, not both.
func editsOf(a sj.Object, oldKey, newKey string) ([]llmfs.Replacement, error) {
	if a.Has("edits") {
		if a.Has(oldKey) || a.Has(newKey) || a.Has("replace_all") {
			return nil, invalid("give either edits or %s/%s, not both", oldKey, newKey)
		}
		var out []llmfs.Replacement
		for _, e := range a.Objects("edits") {
			out = append(out, llmfs.Replacement{Old: e.String(oldKey, ""), New: e.String(newKey, ""), ReplaceAll: e.Bool("replace_all", false)})
		}
		return out, nil
	}
	if !a.Has(oldKey) || !a.Has(newKey) {
		return nil, invalid("missing required parameters %q and %q (or edits)", oldKey, newKey)
	}
	return []llmfs.Replacement{{Old: a.String(oldKey, ""), New: a.String(newKey, ""), ReplaceAll: a.Bool("replace_all", false)}}, nil
}

func invalid(format string, args ...any) error {
	return &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: fmt.Sprintf(format, args...)}
}

// editResult is an edit's result: path, replacements, diff, and matched when the old text
// was found by a tolerant step rather than exactly (its absence means exact).
func editResult(res *llmfs.EditResult) map[string]any {
	out := map[string]any{"path": res.Path, "replacements": res.Replacements, "diff": res.Diff}
	if res.Matched != "" && res.Matched != llmfs.MatchExact {
		out["matched"] = res.Matched
	}
	return out
}
