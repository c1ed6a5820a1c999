package openai

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// Operation is one operation of a hosted apply_patch call: create_file (Diff holds the
// new file's lines, each prefixed "+", as V4A's Add File does), update_file (Diff holds
// V4A hunks: "@@" anchors and " ", "-", "+" lines) or delete_file (no Diff). Path is
// relative to the workspace root, or absolute.
type Operation struct {
	Type string `json:"type"`
	Path string `json:"path"`
	Diff string `json:"diff,omitempty"`
}

// ApplyPatch applies a hosted apply_patch call to ws and returns the input item that
// answers it: an apply_patch_call_output with status "completed" and a short log, or
// status "failed" and the llmfs error ("PATTERN_NOT_FOUND: ..."). The change is one
// all-or-nothing Workspace.Patch: journaled, checked against the workspace's policy,
// and its hunks matched with the tolerant matcher.
func ApplyPatch(ctx context.Context, ws *llmfs.Workspace, call responses.ResponseApplyPatchToolCall) responses.ResponseInputItemUnionParam {
	op := Operation{Type: call.Operation.Type, Path: call.Operation.Path, Diff: call.Operation.Diff}
	status, output := "completed", ""
	log, err := ApplyOperation(ctx, ws, op)
	if err != nil {
		e := tools.ErrorOf(err)
		status, output = "failed", e.Code+": "+e.Message
	} else {
		output = log
	}
	item := responses.ResponseInputItemParamOfApplyPatchCallOutput(call.CallID, status)
	item.OfApplyPatchCallOutput.Output = sdk.String(output)
	return item
}

// ApplyOperation applies one apply_patch operation to ws as a V4A patch and returns a
// short log of what it did.
func ApplyOperation(ctx context.Context, ws *llmfs.Workspace, op Operation) (string, error) {
	if op.Path == "" {
		return "", &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "apply_patch: the operation names no path"}
	}
	var body, verb string
	switch op.Type {
	case "create_file":
		body, verb = "*** Add File: "+op.Path+"\n"+addLines(op.Diff), "Created"
	case "update_file":
		if strings.TrimSpace(op.Diff) == "" {
			return "", &llmfs.Error{Code: llmfs.CodeInvalidArgument, Path: op.Path, Msg: "apply_patch: update_file has no diff"}
		}
		body, verb = "*** Update File: "+op.Path+"\n"+withNewline(op.Diff), "Updated"
	case "delete_file":
		body, verb = "*** Delete File: "+op.Path+"\n", "Deleted"
	default:
		return "", &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: fmt.Sprintf("apply_patch: unknown operation %q", op.Type)}
	}
	text := "*** Begin Patch\n" + body + "*** End Patch\n"
	if err := tools.CheckPatchText(text, op.Path); err != nil {
		return "", err
	}
	res, err := ws.Patch(ctx, text, llmfs.PatchOptions{})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range res.Files {
		fmt.Fprintf(&b, "%s %s\n", verb, ws.Paths().Rel(f.Path))
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// addLines returns a create_file diff as V4A's Add File lines: as it is when every line
// has the "+" prefix, else each line prefixed (a model that sent the bare content).
func addLines(diff string) string {
	diff = strings.TrimSuffix(diff, "\n")
	if diff == "" {
		return ""
	}
	lines := strings.Split(diff, "\n")
	prefixed := true
	for _, l := range lines {
		if !strings.HasPrefix(l, "+") {
			prefixed = false
			break
		}
	}
	if prefixed {
		return diff + "\n"
	}
	return "+" + strings.Join(lines, "\n+") + "\n"
}

func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
