package tools

import (
	"context"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

// patchTool is the patch tool every dialect has: one entry for the patch formats models
// write, applied all or nothing.
func patchTool(pathDesc string) tool {
	return tool{
		name: "patch", output: patchOut, op: llmfs.OpEdit, destructive: true,
		description: "Apply a patch to one or more files, all or nothing. Accepts a V4A patch (*** Begin Patch / *** Update File: path / @@ / " +
			"-old / +new / *** End Patch, as Codex's apply_patch), a unified diff (--- a/path, +++ b/path, @@ hunks; line numbers optional), " +
			"or SEARCH/REPLACE blocks (the file's path on the line before <<<<<<< SEARCH, then the old text, =======, the new text, " +
			">>>>>>> REPLACE; Cline's ------- SEARCH / +++++++ REPLACE and Roo's :start_line: are read too). Each hunk must match one place; " +
			"small differences in whitespace, indentation, quotes or copied line numbers are forgiven and reported in matched. " +
			"If any hunk fails, no file changes and the error names the hunk and shows the nearest text.",
		params: []param{
			str("patch", "The patch text.", true),
			str("path", pathDesc, false),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			return tb.patch(ctx, a.String("patch", ""), a.String("path", ""))
		},
	}
}

func (tb *Toolbox) patch(ctx context.Context, text, path string) (any, error) {
	if err := checkPatchText(text, path); err != nil {
		return nil, err
	}
	res, err := tb.ws.Patch(ctx, text, llmfs.PatchOptions{Path: path})
	if err != nil {
		return nil, err
	}
	return map[string]any{"format": res.Format, "files": res.Files, "diff": res.Diff}, nil
}
