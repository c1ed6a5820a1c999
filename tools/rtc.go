package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

const vpathDesc = "Absolute path in the workspace, where / is the workspace root (for example /src/main.go). '..' is not allowed."

// rtcTools is the rtc dialect (seed 003): short verbs on virtual absolute paths, through a
// [llmfs.VirtualPaths] view, so results and messages show only virtual paths.
//
// remove is deliberately absent: deleting is in the Go API ([llmfs.Workspace.Delete]) but
// never offered to a model in this dialect.
func rtcTools() []tool {
	return []tool{rtcLs(), rtcRead(), rtcWrite(), rtcEdit(), rtcFind(), rtcGrep(), patchTool(vpathDesc)}
}

func rtcLs() tool {
	return tool{
		name: "ls", output: rtcListOut(), op: llmfs.OpList, readOnly: true, idempotent: true,
		description: "List a directory (default /): entries sorted by name, each with name, type (file or directory) and size in bytes (0 for directories). " +
			"Big directories come in pages: continue at next_offset.",
		params: []param{str("path", "Directory to list, a virtual path; default /.", false), offsetParam()},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			p := a.String("path", "/")
			entries, err := tb.ws.List(ctx, p)
			if err != nil {
				return nil, err
			}
			abs, _ := tb.ws.Paths().Abs(p) // List has checked p
			out := map[string]any{"path": abs}
			out["entries"] = tb.pageOf(a, entries, true, out)
			return out, nil
		},
	}
}

func rtcRead() tool {
	return tool{
		name: "read", output: rtcReadOut(), op: llmfs.OpRead, readOnly: true, idempotent: true,
		description: "Read a text file. Lines come numbered like cat -n: the line number, a tab, then the line. Without limit at most 2000 lines " +
			"(or 256 KiB) are returned; page through big files with offset (first line, from 1) and limit. Lines over 2000 characters are cut. " +
			"A note at the end says when there is more and which offset to continue from. A PNG, JPEG, GIF or WebP image (up to 5 MiB) " +
			"comes back as an image. Read a file before you edit or overwrite it.",
		params: []param{
			str("path", vpathDesc, true),
			integer("offset", "First line to read, counting from 1.", 1),
			integer("limit", "Maximum number of lines to read.", 0),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			img, res, err := tb.read(ctx, a)
			if img != nil || err != nil {
				return img, err
			}
			content := numbered(res, tb.ws.Settings().Limits, "offset")
			out := map[string]any{"path": res.Path, "content": content, "total_lines": res.TotalLines}
			addReadNotes(out, res)
			text := content
			if res.Offset == 1 && res.Lines == res.TotalLines && res.TotalLines > 0 && res.CutLines == 0 && !res.InvalidUTF8 {
				// numbered added no note: say that this is all of it.
				text += fmt.Sprintf("(the whole file: %d %s)\n", res.TotalLines, plural(res.TotalLines, "line", "lines"))
			}
			if text == "" { // "limit": 0
				text = fmt.Sprintf("(no lines asked for; the file has %d %s)\n", res.TotalLines, plural(res.TotalLines, "line", "lines"))
			}
			return textResult{obj: out, text: text}, nil
		},
	}
}

func rtcWrite() tool {
	return tool{
		name: "write", output: rtcWriteOut(), op: llmfs.OpWrite, destructive: true,
		description: "Create or write a file; parent directories are created. mode: overwrite (default), append, or create (fails if the file exists). " +
			"Overwriting an existing file requires reading it first in this session.",
		params: []param{
			str("path", vpathDesc, true),
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
			return map[string]any{"path": res.Path, "bytes": res.Bytes, "created": res.Created}, nil
		},
	}
}

func rtcEdit() tool {
	return tool{
		name: "edit", output: editOut(), op: llmfs.OpEdit, destructive: true,
		description: "Replace exact text in a file you have read in this session. old_string must match the file exactly (indentation included) and " +
			"occur once, unless replace_all is true; new_string must differ from it. Returns the number of replacements and a diff.",
		params: []param{
			str("path", vpathDesc, true),
			str("old_string", "The exact text to replace.", true),
			str("new_string", "The replacement text (must differ from old_string).", true),
			boolean("replace_all", "Replace every occurrence (needed when old_string is not unique)."),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			if err := checkEditText(a.String("path", ""), a.String("old_string", ""), a.String("new_string", ""), "new_string"); err != nil {
				return nil, err
			}
			res, err := tb.ws.Edit(ctx, a.String("path", ""), a.String("old_string", ""), a.String("new_string", ""), a.Bool("replace_all", false))
			if err != nil {
				return nil, err
			}
			return editResult(res), nil
		},
	}
}

// numbered renders a read as cat -n does: the line number right-aligned in six columns, a
// tab, the line; then notes, one a line in parentheses, for what a model must know: an
// empty file, an offset past the end, cut lines, replaced bytes, and where to go on.
//
// by names the parameter the notes point to: "offset" in rtc (Claude Code's Read), and
// "view_range" in anthropic, whose view has no offset.
func numbered(res *llmfs.ReadResult, lim llmfs.Limits, by string) string {
	if res.TotalLines == 0 {
		return "(the file is empty)\n"
	}
	var sb strings.Builder
	n := res.Offset
	content := res.Content
	if n == 1 {
		content = strings.TrimPrefix(content, "\uFEFF") // a byte-order mark is not text
	}
	for line := range strings.Lines(content) {
		fmt.Fprintf(&sb, "%6d\t%s\n", n, strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"))
		n++
	}
	if res.Lines == 0 && res.Offset > res.TotalLines {
		fmt.Fprintf(&sb, "(%s %d is past the end of the file, which has %d %s)\n", by, res.Offset, res.TotalLines, plural(res.TotalLines, "line", "lines"))
	}
	if res.CutLines > 0 {
		fmt.Fprintf(&sb, "(%d %s longer than %d characters cut short)\n", res.CutLines, plural(res.CutLines, "line", "lines"), lim.MaxLineLength)
	}
	if res.InvalidUTF8 {
		sb.WriteString("(the file is not valid UTF-8: bytes that are not were replaced with U+FFFD)\n")
	}
	if last := res.Offset + res.Lines - 1; res.Lines > 0 && last < res.TotalLines {
		next := fmt.Sprintf("offset=%d", last+1)
		if by == "view_range" {
			next = fmt.Sprintf("view_range [%d, -1]", last+1)
		}
		fmt.Fprintf(&sb, "(showing lines %d-%d of %d; continue with %s)\n", res.Offset, last, res.TotalLines, next)
	}
	return sb.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
