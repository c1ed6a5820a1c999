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
		name: "patch", output: patchOut(), op: llmfs.OpEdit, destructive: true,
		description: "Apply a patch, all or nothing: V4A (*** Begin Patch / *** Update File: path / @@ / -old +new / *** End Patch), " +
			"a unified diff, or SEARCH/REPLACE blocks. Small whitespace and quote differences are forgiven (see matched).",
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
	if err := CheckPatchText(text, path); err != nil {
		return nil, err
	}
	res, err := tb.ws.Patch(ctx, text, llmfs.PatchOptions{Path: path})
	if err != nil {
		return nil, err
	}
	if tb.dialect == Codex {
		// Codex's paths are relative to the root, as its model writes them.
		for i, f := range res.Files {
			res.Files[i].Path = tb.ws.Paths().Rel(f.Path)
			if f.To != "" {
				res.Files[i].To = tb.ws.Paths().Rel(f.To)
			}
		}
	}
	return map[string]any{"format": res.Format, "files": res.Files, "diff": res.Diff}, nil
}
