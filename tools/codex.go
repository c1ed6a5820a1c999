package tools

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

// codexTools is the codex dialect: the tools OpenAI's Codex agents are trained on.
// apply_patch takes a V4A patch, as a JSON function ({"input": patch}) or, for hosts with
// custom tools, as free text constrained by [CodexPatchGrammar]; read_file, list_dir and
// grep_files read and search. Paths are relative to the workspace root (absolute paths
// inside it work too).
func codexTools() []tool {
	return []tool{codexApplyPatch(), codexReadFile(), codexListDir(), codexGrepFiles(), patchTool("File for SEARCH/REPLACE blocks or hunks that name none, relative to the root.")}
}

// CodexPatchGrammar is the V4A patch format as a Lark grammar, for hosts that offer
// apply_patch as a free-form custom tool. It is llmfs's statement of the format Codex
// documents; the parser (package patch) is more lenient than it.
const CodexPatchGrammar = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`

func codexApplyPatch() tool {
	return tool{
		name: "apply_patch", output: patchOut(), op: llmfs.OpEdit, destructive: true, freeform: true,
		description: "Edit files with a patch in the V4A format. The patch starts with '*** Begin Patch' and ends with '*** End Patch'; " +
			"between them, one section per file: '*** Add File: path' followed by the new file's lines, each prefixed with '+'; " +
			"'*** Delete File: path'; or '*** Update File: path' (optionally followed by '*** Move to: new/path') and chunks. " +
			"A chunk opens with '@@' or '@@ <a line the change comes after, such as a class or function signature>' and lists lines " +
			"prefixed with ' ' (unchanged context: about three lines before and after each change), '-' (removed) or '+' (added). " +
			"'*** End of File' after a chunk anchors it at the end of the file. Paths are relative to the workspace root. " +
			"The patch applies to all files or none; each chunk must match one place, forgiving small whitespace, indentation and quote differences.",
		params: []param{str("input", "The whole patch, from *** Begin Patch to *** End Patch.", true)},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			return tb.patch(ctx, a.String("input", ""), "")
		},
	}
}

func codexReadFile() tool {
	return tool{
		name: "read_file", output: codexReadOut(), op: llmfs.OpRead, readOnly: true, idempotent: true,
		description: "Read a text file. Each line comes prefixed with its number as 'L<n>: '. offset is the first line (from 1), limit the " +
			"number of lines (default: up to 2000). The result says when there is more and where to continue. A PNG, JPEG, GIF or WebP " +
			"image (up to 5 MiB) comes back as an image.",
		params: []param{
			str("file_path", "Path of the file, relative to the workspace root.", true),
			integer("offset", "First line to read, counting from 1.", 1),
			integer("limit", "Maximum number of lines to return.", 1),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			img, res, err := tb.readAny(ctx, a.String("file_path", ""), llmfs.ReadOptions{Offset: int(a.Int("offset", 1)), Limit: int(a.Int("limit", 0))})
			if img != nil || err != nil {
				return img, err
			}
			var sb strings.Builder
			n := res.Offset
			content := res.Content
			if n == 1 {
				content = strings.TrimPrefix(content, "\uFEFF")
			}
			for line := range strings.Lines(content) {
				fmt.Fprintf(&sb, "L%d: %s\n", n, strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"))
				n++
			}
			out := map[string]any{"content": sb.String(), "total_lines": res.TotalLines}
			addReadNotes(out, res)
			return out, nil
		},
	}
}

func codexListDir() tool {
	return tool{
		name: "list_dir", output: codexListOut(), op: llmfs.OpList, readOnly: true, idempotent: true,
		description: "List a directory and, down to depth levels (default 2), the directories below it: one entry a line, indented two " +
			"spaces per level, directories ending in '/'. offset (from 1) and limit (default 200) page through long listings.",
		params: []param{
			str("dir_path", "Directory to list, relative to the workspace root; default the root.", false),
			integer("offset", "First entry to return, counting from 1.", 1),
			integer("limit", "Most entries to return (default 200).", 1),
			integer("depth", "How many levels to descend (default 2).", 1),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			dir := a.String("dir_path", ".")
			lines, err := tb.tree(ctx, dir, int(a.Int("depth", 2)), 5000, nil)
			if err != nil {
				return nil, err
			}
			offset, limit := int(a.Int("offset", 1)), int(a.Int("limit", 200))
			total := len(lines)
			lines = lines[min(offset-1, total):]
			out := map[string]any{"total_entries": total}
			if note := pastEndNote(offset, total); note != "" {
				out["note"] = note
			}
			if len(lines) > limit {
				lines = lines[:limit]
				out["truncated"] = true
				out["next_offset"] = offset + limit
			}
			out["entries"] = strings.Join(lines, "\n")
			return out, nil
		},
	}
}

// tree lists dir and its subdirectories down to depth levels, at most max lines. descend,
// when set, says which subdirectories it may enter (listed either way).
func (tb *Toolbox) tree(ctx context.Context, dir string, depth, max int, descend func(dir string) bool) ([]string, error) {
	var lines []string
	var walk func(p string, level int) error
	walk = func(p string, level int) error {
		entries, err := tb.ws.ListNames(ctx, p) // names and types: no stat per entry
		if err != nil {
			return err
		}
		for _, e := range entries {
			if len(lines) >= max {
				return nil
			}
			name := nameLine(e.Name) // a newline in a name must not fake an entry
			if e.Type == llmfs.TypeDirectory {
				name += "/"
			}
			lines = append(lines, strings.Repeat("  ", level)+name)
			if e.Type == llmfs.TypeDirectory && level+1 < depth {
				if sub := path.Join(p, e.Name); descend == nil || descend(sub) {
					if err := walk(sub, level+1); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return lines, walk(dir, 0)
}

func codexGrepFiles() tool {
	return tool{
		name: "grep_files", output: findOut(), op: llmfs.OpGrep, readOnly: true, idempotent: true,
		description: "Find the files whose contents match a regular expression (RE2 syntax), newest first. include filters files by glob " +
			"(*.rs, **/*.{ts,tsx}); path is the directory to search (default the root); limit caps the paths returned (default 100).",
		params: []param{
			str("pattern", "Regular expression to search for.", true),
			str("include", "Only files matching this glob.", false),
			str("path", "Directory or file to search, relative to the workspace root.", false),
			integer("limit", "Most file paths to return (default 100).", 1),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			res, err := tb.ws.Grep(ctx, llmfs.GrepOptions{
				Pattern: a.String("pattern", ""), Path: a.String("path", ""), Glob: a.String("include", ""),
				Mode: llmfs.GrepFiles, HeadLimit: int(a.Int("limit", 100)),
			})
			if err != nil {
				return nil, err
			}
			files := []string{}
			for _, e := range res.Entries {
				if e.Path != "" {
					files = append(files, tb.shown(e.Path))
				}
			}
			out := map[string]any{"files": files, "count": len(files)}
			if res.Truncated {
				out["truncated"] = true
			}
			return out, nil
		},
	}
}
