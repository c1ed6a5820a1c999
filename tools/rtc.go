package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

const vpathDesc = "Absolute path in the workspace, where / is the workspace root (for example /src/main.go). '..' is not allowed."

// rtcTools is the rtc dialect (seed 003): short verbs, virtual absolute paths.
var rtcTools = []tool{
	{
		name: "ls", op: llmfs.OpList, readOnly: true, idempotent: true,
		description: "List a directory of the workspace (default /): entries sorted by name with type (file or directory) and size in bytes.",
		params:      []param{str("path", "Directory to list; default /.", false)},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			p, err := vpath(a.String("path", "/"))
			if err != nil {
				return nil, err
			}
			entries, err := tb.ws.List(ctx, p)
			if err != nil {
				return nil, virtualError(err, a.String("path", "/"))
			}
			return map[string]any{"path": tb.virtual(p), "entries": entries}, nil
		},
	},
	{
		name: "read", op: llmfs.OpRead, readOnly: true, idempotent: true,
		description: "Read a text file. Lines come numbered like cat -n (line number, a tab, the text). Reads at most 2000 lines unless " +
			"limit says otherwise; page through big files with offset (first line, from 1) and limit. Lines over 2000 characters are cut. " +
			"Read a file before you edit or overwrite it.",
		params: []param{
			str("path", vpathDesc, true),
			integer("offset", "First line to read, counting from 1.", 1),
			integer("limit", "Maximum number of lines to read.", 0),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			arg := a.String("path", "")
			p, err := vpath(arg)
			if err != nil {
				return nil, err
			}
			res, err := tb.ws.Read(ctx, p, readOptions(a))
			if err != nil {
				return nil, virtualError(err, arg)
			}
			out := map[string]any{"path": tb.virtual(p), "content": numbered(res), "total_lines": res.TotalLines}
			addReadNotes(out, res)
			return out, nil
		},
	},
	{
		name: "write", op: llmfs.OpWrite, destructive: true,
		description: "Create or write a file; parent directories are created. mode: overwrite (default), append, or create (fails if the file exists). " +
			"Overwriting an existing file requires reading it first in this session.",
		params: []param{
			str("path", vpathDesc, true),
			str("content", "The text to write.", true),
			enum("mode", "overwrite (default), append or create.", "overwrite", "append", "create"),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			arg := a.String("path", "")
			p, err := vpath(arg)
			if err != nil {
				return nil, err
			}
			res, err := tb.ws.Write(ctx, p, a.String("content", ""), llmfs.WriteOptions{Mode: llmfs.WriteMode(a.String("mode", ""))})
			if err != nil {
				return nil, virtualError(err, arg)
			}
			return map[string]any{"path": tb.virtual(p), "bytes": res.Bytes, "created": res.Created}, nil
		},
	},
	{
		name: "edit", op: llmfs.OpEdit, destructive: true,
		description: "Replace exact text in a file you have read in this session. old_string must match exactly (indentation included) and " +
			"occur once, unless replace_all is true; new_string must differ from it. Returns the number of replacements and a diff.",
		params: []param{
			str("path", vpathDesc, true),
			str("old_string", "The exact text to replace.", true),
			str("new_string", "The replacement text (must differ from old_string).", true),
			boolean("replace_all", "Replace every occurrence (needed when old_string is not unique)."),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			arg := a.String("path", "")
			p, err := vpath(arg)
			if err != nil {
				return nil, err
			}
			res, err := tb.ws.Edit(ctx, p, a.String("old_string", ""), a.String("new_string", ""), a.Bool("replace_all", false))
			if err != nil {
				return nil, virtualError(err, arg)
			}
			return map[string]any{"path": tb.virtual(p), "replacements": res.Replacements, "diff": res.Diff}, nil
		},
	},
}

// vpath checks a virtual path and returns it relative to the workspace root. Any ".."
// element is refused outright, before normalization.
func vpath(p string) (string, error) {
	if p == "" {
		return "", &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: p, Msg: "path is empty"}
	}
	for elem := range strings.SplitSeq(p, "/") {
		if elem == ".." {
			return "", &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: p, Msg: "'..' is not allowed in paths: " + p}
		}
	}
	rel := strings.TrimLeft(p, "/")
	if rel == "" {
		return ".", nil
	}
	return rel, nil
}

// virtual returns the virtual absolute path of a workspace-relative path.
func (tb *Toolbox) virtual(rel string) string {
	if rel == "." {
		return "/"
	}
	return "/" + strings.TrimPrefix(tb.ws.Rel(tb.ws.Root()+"/"+rel), "./")
}

// virtualError rewrites host paths in an error message to the virtual path the model used.
func virtualError(err error, arg string) error {
	e, ok := err.(*llmfs.Error)
	if !ok {
		return err
	}
	c := *e
	c.Path = arg
	return &c
}

// numbered renders a read as cat -n does: the line number right-aligned in six columns,
// a tab, the line; with a closing note when the read stopped early.
func numbered(res *llmfs.ReadResult) string {
	if res.TotalLines == 0 {
		return "(the file is empty)"
	}
	var sb strings.Builder
	n := res.Offset
	for line := range strings.Lines(res.Content) {
		fmt.Fprintf(&sb, "%6d\t%s", n, strings.TrimRight(line, "\r\n"))
		sb.WriteByte('\n')
		n++
	}
	if res.Lines == 0 && res.Offset > res.TotalLines {
		fmt.Fprintf(&sb, "(offset %d is past the end: the file has %d lines)\n", res.Offset, res.TotalLines)
	}
	if last := res.Offset + res.Lines - 1; res.Lines > 0 && last < res.TotalLines {
		fmt.Fprintf(&sb, "(showing lines %d-%d of %d; continue with offset=%d)\n", res.Offset, last, res.TotalLines, last+1)
	}
	return sb.String()
}
