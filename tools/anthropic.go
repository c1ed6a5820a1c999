package tools

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

// anthropicTools is the anthropic dialect: Claude's text editor tool
// (str_replace_based_edit_tool) and memory tool, on virtual paths where "/" is the
// workspace root, as in rtc; memory works only below /memories.
//
// undo_edit takes back the newest change to a file that this session's actor made and has
// not taken back yet, from the workspace journal (history.go: the same as undo with a
// path), so it survives a restart of the server; it is compare-and-swap on what the change
// left (FILE_CHANGED, with the diff, if the file changed since), and itself journaled.
func anthropicTools() []tool {
	return []tool{anthropicEditor(), anthropicMemory(), patchTool(vpathDesc)}
}

// MemoryRoot is the directory the anthropic memory tool is confined to.
const MemoryRoot = "/memories"

func anthropicEditor() tool {
	return tool{
		// One tool that both reads and writes: it needs the edit mode, so a read-only
		// workspace does not offer it (see the package doc).
		name: "str_replace_based_edit_tool", output: editorOut(), op: llmfs.OpEdit, destructive: true,
		description: "View, create and edit files of the workspace. Paths are absolute, with / the workspace root. Commands: " +
			"view (a file, with line numbers like cat -n, optionally only view_range [first, last] with last -1 for the end; or a directory, " +
			"listing files and directories two levels deep, hidden ones left out); create (a new file with file_text; parents are made); " +
			"str_replace (replace old_str, which must occur exactly once, with new_str; small differences in whitespace, indentation, " +
			"quotes or copied line numbers are forgiven and reported); insert (insert_text, or new_str, after line insert_line, 0 for the " +
			"start of the file); undo_edit (take back this session's last change to path; again to go further back).",
		params: append([]param{
			enum("command", "view, create, str_replace, insert or undo_edit.", "view", "create", "str_replace", "insert", "undo_edit"),
		}, editorParams()...),
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			return tb.editor(ctx, a, "")
		},
	}
}

func editorParams() []param {
	return []param{
		str("path", "Absolute path of the file or directory, where / is the workspace root.", false),
		{Param: sj.Param{Name: "view_range", Kind: sj.Ints, Min: -1}, description: "view: the first and last line to show, from 1; -1 as last means the end."},
		str("file_text", "create: the content of the new file.", false),
		str("old_str", "str_replace: the text to replace; it must occur exactly once.", false),
		str("new_str", "str_replace: the replacement text; insert: the text to insert (as insert_text).", false),
		integer("insert_line", "insert: the line after which to insert, 0 for the start of the file.", 0),
		str("insert_text", "insert: the text to insert.", false),
	}
}

func anthropicMemory() tool {
	return tool{
		name: "memory", output: editorOut(), op: llmfs.OpEdit, destructive: true,
		description: "Keep notes across conversations in the /memories directory: check it before starting a task, and record progress " +
			"and what you learn as you go. Commands: view (a directory listing or a file with line numbers, optionally view_range), " +
			"create (a file with file_text), str_replace (old_str once to new_str), insert (insert_text after insert_line, 0 for the start), " +
			"delete (a file or an empty directory) and rename (old_path to new_path). Every path must be below /memories.",
		params: append([]param{
			enum("command", "view, create, str_replace, insert, delete or rename.", "view", "create", "str_replace", "insert", "delete", "rename"),
		}, append(append([]param{}, editorParams()...),
			str("old_path", "rename: the current path.", false),
			str("new_path", "rename: the new path.", false),
		)...),
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			if tb.memories != nil {
				return tb.memoriesElsewhere(ctx, a)
			}
			return tb.editor(ctx, a, MemoryRoot)
		},
	}
}

func need(a sj.Object, cmd string, names ...string) error {
	for _, n := range names {
		if !a.Has(n) {
			return invalid("%s needs the parameter %q", cmd, n)
		}
	}
	return nil
}

// inMemories checks that p is root (/memories) or below it.
func inMemories(root, p string) error {
	c := path.Clean(p)
	if p == "" || (c != root && root != "/" && !strings.HasPrefix(c, root+"/")) {
		return &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: p, Msg: fmt.Sprintf("the memory tool works only below %s; %q is outside it", root, p)}
	}
	return nil
}

// inMemoriesReal checks that p is below memRoot and, once its symbolic links are followed,
// still below the directory memRoot really is: a link inside the memory directory must not
// lead the tool to the rest of the workspace (/memories itself may be a link, to wherever
// the operator keeps the notes). When the memories are a workspace of their own (memRoot
// "/"), its sandbox is that limit already.
func (tb *Toolbox) inMemoriesReal(ctx context.Context, memRoot, p string) error {
	if err := inMemories(memRoot, p); err != nil {
		return err
	}
	if memRoot == "/" {
		return nil
	}
	real, err := tb.ws.Paths().Real(ctx, p)
	if err != nil {
		return err
	}
	base, err := tb.ws.Paths().Real(ctx, memRoot)
	if err != nil {
		return err
	}
	if real != base && !strings.HasPrefix(real, strings.TrimSuffix(base, "/")+"/") {
		return &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: p, Msg: fmt.Sprintf("%s leads through a symbolic link to %s, outside %s; the memory tool works only inside it", p, real, memRoot)}
	}
	return nil
}

// editor runs the text editor's commands, or with memRoot the memory tool's, confined to
// memRoot (/memories; "/" when the memories are a workspace of their own).
func (tb *Toolbox) editor(ctx context.Context, a sj.Object, memRoot string) (any, error) {
	memory := memRoot != ""
	cmd := a.String("command", "")
	if !a.Has("command") {
		return nil, invalid("missing required parameter \"command\"")
	}
	p := a.String("path", "")
	if cmd != "rename" {
		if err := need(a, cmd, "path"); err != nil {
			return nil, err
		}
		if memory {
			if err := tb.inMemoriesReal(ctx, memRoot, p); err != nil {
				return nil, err
			}
		}
	}
	if cmd == "delete" && !tb.ws.Settings().Mode.Allows(llmfs.OpDelete) {
		return nil, &llmfs.Error{Code: llmfs.CodePermissionDenied, Path: p,
			Msg: fmt.Sprintf("the workspace is %s: deleting needs the full mode; the delete command is not available", tb.ws.Settings().Mode)}
	}
	switch cmd {
	case "view":
		return tb.view(ctx, p, a, memRoot)
	case "create":
		if err := need(a, cmd, "file_text"); err != nil {
			return nil, err
		}
		// Both SDKs' memory tools, like the text editor, refuse to create a file that exists.
		if !memory {
			if err := tb.checkWriteText(ctx, p, a.String("file_text", ""), "file_text"); err != nil {
				return nil, err
			}
		}
		res, err := tb.ws.Write(ctx, p, a.String("file_text", ""), llmfs.WriteOptions{Mode: llmfs.Create})
		if err != nil {
			instead := "change it with str_replace or insert"
			if memory {
				instead += ", or delete it first"
			}
			return nil, existsAs(err, p, instead)
		}
		return map[string]any{"path": res.Path, "bytes": res.Bytes, "created": res.Created}, nil
	case "str_replace":
		if err := need(a, cmd, "old_str"); err != nil {
			return nil, err
		}
		if !memory {
			if err := checkEditText(p, a.String("old_str", ""), a.String("new_str", ""), "new_str"); err != nil {
				return nil, err
			}
		}
		res, err := tb.ws.Edit(ctx, p, a.String("old_str", ""), a.String("new_str", ""), false)
		if err != nil {
			return nil, notUniqueAs(err, "")
		}
		return editResultAll(res), nil
	case "insert":
		if err := need(a, cmd, "insert_line"); err != nil {
			return nil, err
		}
		text, ok := a.String("insert_text", ""), a.Has("insert_text")
		if !ok {
			text, ok = a.String("new_str", ""), a.Has("new_str")
		} else if a.Has("new_str") {
			return nil, invalid("give the text to insert as insert_text or new_str, not both")
		}
		if !ok {
			return nil, invalid("insert needs the parameter \"insert_text\" (or \"new_str\")")
		}
		if !memory {
			if err := checkEditText(p, "", text, "insert_text"); err != nil {
				return nil, err
			}
		}
		res, err := tb.ws.Insert(ctx, p, int(a.Int("insert_line", 0)), text)
		if err != nil {
			return nil, err
		}
		return editResultAll(res), nil
	case "undo_edit":
		c, err := tb.lastChange(ctx, p)
		if err != nil {
			return nil, err
		}
		res, err := tb.undoChange(ctx, c)
		if err != nil {
			return nil, err
		}
		diff := tb.undone(ctx, res, []llmfs.Change{c})["diff"]
		return map[string]any{"path": c.Path, "undone": true, "diff": diff}, nil
	case "delete":
		if memory && path.Clean(p) == memRoot {
			return nil, invalid("the %s directory itself cannot be deleted", MemoryRoot)
		}
		if entries, err := tb.ws.ListNames(ctx, p); err == nil {
			if len(entries) > 0 {
				return nil, &llmfs.Error{Code: llmfs.CodeDirectoryNotEmpty, Path: p, Msg: p + " is a directory with files in it; delete them first"}
			}
			return nil, invalid("%s is a directory; only files can be deleted", p)
		}
		d, err := tb.ws.Delete(ctx, p)
		if err != nil {
			return nil, err
		}
		return map[string]any{"path": d, "deleted": true}, nil
	case "rename":
		if err := need(a, cmd, "old_path", "new_path"); err != nil {
			return nil, err
		}
		for _, q := range []string{a.String("old_path", ""), a.String("new_path", "")} {
			if err := tb.inMemoriesReal(ctx, memRoot, q); err != nil {
				return nil, err
			}
		}
		return tb.ws.Move(ctx, a.String("old_path", ""), a.String("new_path", ""))
	}
	return nil, invalid("unknown command %q", cmd)
}

// editResultAll is an edit's result with matched always present.
func editResultAll(res *llmfs.EditResult) map[string]any {
	out := editResult(res)
	out["matched"] = res.Matched
	if res.Matched == "" {
		out["matched"] = llmfs.MatchExact
	}
	return out
}

// view shows a file with numbered lines or a directory two levels deep.
func (tb *Toolbox) view(ctx context.Context, p string, a sj.Object, memRoot string) (any, error) {
	_, err := tb.ws.ListNames(ctx, p)
	emptyMemories := memRoot != "" && path.Clean(p) == memRoot && llmfs.CodeOf(err) == llmfs.CodeFileNotFound
	if err == nil || emptyMemories {
		if a.Has("view_range") {
			return nil, invalid("view_range applies to files; %s is a directory", p)
		}
		var lines []string
		if !emptyMemories {
			var descend func(string) bool
			if memRoot != "" { // not into a link that leads out of /memories
				descend = func(d string) bool { return tb.inMemoriesReal(ctx, memRoot, d) == nil }
			}
			if lines, err = tb.tree(ctx, p, 2, 2000, descend); err != nil {
				return nil, err
			}
		}
		var vis []string
		for _, l := range lines {
			if !strings.HasPrefix(strings.TrimLeft(l, " "), ".") {
				vis = append(vis, l)
			}
		}
		return map[string]any{"path": p, "type": "directory", "content": strings.Join(vis, "\n")}, nil
	}
	opts := llmfs.ReadOptions{}
	if r := a.IntList("view_range"); a.Has("view_range") {
		if len(r) != 2 || r[0] < 1 || (r[1] != -1 && r[1] < r[0]) {
			return nil, invalid("view_range must be [first, last] with 1 <= first <= last, or last -1 for the end; got %v", r)
		}
		opts.Offset = int(r[0])
		if r[1] != -1 {
			opts.Limit = int(r[1] - r[0] + 1)
		}
	}
	img, res, err := tb.readAny(ctx, p, opts)
	if img != nil || err != nil {
		return img, err
	}
	out := map[string]any{"path": res.Path, "type": "file", "content": numbered(res, tb.ws.Settings().Limits, "view_range"), "total_lines": res.TotalLines}
	addReadNotes(out, res)
	return out, nil
}
