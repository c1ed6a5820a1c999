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

const pathDesc = "Absolute, or relative to the workspace root."

// agentoolTools is the agentool dialect (seed 002) plus llmfs's additions: the file tools,
// then the directory, move and search tools (two tables, each a function of its own).
func agentoolTools() []tool {
	return append(agentoolFileTools(), agentoolTreeTools()...)
}

// agentoolFileTools are the agentool dialect's tools on one file: read, write and edit.
func agentoolFileTools() []tool {
	return []tool{
		{
			name: "file_read", output: readOut(), op: llmfs.OpRead, readOnly: true, idempotent: true,
			description: "Read a text file: content, total_lines. Up to 2000 lines or 256 KiB; if truncated, continue at next_offset. " +
				"Long lines are cut (cut_lines). Images come back as images.",
			params: []param{
				str("path", pathDesc, true),
				integer("offset", "First line, from 1.", 1),
				integer("limit", "Most lines.", 0),
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
			name: "file_write", output: pathOut(), op: llmfs.OpWrite, destructive: true,
			description: "Write a file atomically, creating missing parent directories.",
			params: []param{
				str("path", pathDesc, true),
				str("content", "The text to write.", true),
				enum("mode", "overwrite (default), append, or create (fails if the file exists).", "overwrite", "append", "create"),
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
			name: "file_edit", output: editOut(), op: llmfs.OpEdit, destructive: true,
			description: "Replace exact text in a file (it must occur once unless replace_all); edits makes several changes, all or nothing.",
			params: []param{
				str("path", pathDesc, true),
				str("old_text", "Exact text to replace.", false),
				str("new_text", "Replacement.", false),
				boolean("replace_all", "Replace every occurrence."),
				{Param: sj.Param{Name: "edits", Kind: sj.Array}, description: "Replacements applied in order.",
					items: []param{
						str("old_text", "Exact text to replace.", true),
						str("new_text", "Replacement.", true),
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
	}
}

// agentoolTreeTools are the agentool dialect's directory, move, copy and search tools.
func agentoolTreeTools() []tool {
	return []tool{
		{
			name: "directory_create", output: pathOut(), op: llmfs.OpMkdir, idempotent: true,
			description: "Create a directory and missing parents; one that exists is fine.",
			params:      []param{str("path", "Directory path.", true)},
			run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
				p, err := tb.ws.Mkdir(ctx, a.String("path", ""))
				if err != nil {
					return nil, err
				}
				return map[string]any{"path": p}, nil
			},
		},
		{
			name: "directory_list", output: agentoolListOut(), op: llmfs.OpList, readOnly: true, idempotent: true,
			description: "List a directory: entries sorted by name with type and size. Big ones come in pages: continue at next_offset.",
			params: []param{
				str("path", "Directory; default the root.", false),
				boolean("names_only", "Only the names, directories ending in '/'; faster."),
				offsetParam(),
			},
			run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
				if a.Bool("names_only", false) {
					// No sizes: the listing stats no entry (llmfs.Workspace.ListNames).
					entries, err := tb.ws.ListNames(ctx, a.String("path", "."))
					if err != nil {
						return nil, err
					}
					out := map[string]any{}
					entries = tb.pageOf(a, entries, false, out)
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
					if note, ok := out["note"].(string); ok {
						text.WriteString(note + "\n")
					} else if len(names) == 0 {
						text.WriteString(emptyDirNote + "\n")
					}
					if next, ok := out["next_offset"]; ok {
						fmt.Fprintf(&text, "(more entries follow; continue with offset=%d)\n", next)
					}
					out["names"] = names
					// The model reads the names one a line, as ls prints them: a third fewer
					// bytes than their JSON, whose quotes the text would escape once more.
					return textResult{obj: out, text: text.String()}, nil
				}
				entries, err := tb.ws.List(ctx, a.String("path", "."))
				if err != nil {
					return nil, err
				}
				out := map[string]any{}
				out["entries"] = tb.pageOf(a, entries, true, out)
				return out, nil
			},
		},
		{
			name: "file_delete", output: pathOut(), op: llmfs.OpDelete, destructive: true,
			description: "Delete a file (not a directory).",
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
			name: "file_move", output: moveOut(), op: llmfs.OpMove, destructive: true,
			description: "Move or rename a file; fails if the destination exists.",
			params:      []param{str("source", "File to move.", true), str("destination", "New path.", true)},
			run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
				return tb.ws.Move(ctx, a.String("source", ""), a.String("destination", ""))
			},
		},
		{
			name: "file_copy", output: moveOut(), op: llmfs.OpCopy,
			description: "Copy a file; fails if the destination exists.",
			params:      []param{str("source", "File to copy.", true), str("destination", "Path of the copy.", true)},
			run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
				return tb.ws.Copy(ctx, a.String("source", ""), a.String("destination", ""))
			},
		},
		fileFind(),
		fileGrep(),
		patchTool("File for blocks or hunks that name none."),
	}
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
