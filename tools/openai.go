package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs"
)

// openAIChat renders defs as Chat Completions tools, {type: "function", function: {name,
// description, parameters, strict: false}}, the shape most OpenAI-compatible servers take.
// A tool with a grammar is a function too: its JSON form takes the text as its one
// parameter, and custom tools are not something those servers speak.
func openAIChat(defs []Definition) any {
	list := []map[string]any{}
	for _, d := range defs {
		list = append(list, map[string]any{"type": "function", "function": map[string]any{
			"name": d.Name, "description": d.Description, "parameters": d.InputSchema, "strict": false}})
	}
	return list
}

// ApplyPatchCall runs one apply_patch_call item of OpenAI's Responses API, which a model
// emits when it is offered the hosted tool {"type": "apply_patch"}, and returns the
// apply_patch_call_output item that answers it:
//
//	in:  {"type": "apply_patch_call", "call_id": "c1", "operation": {"type": "update_file", "path": "a.go", "diff": "@@\n-old\n+new\n"}}
//	out: {"type": "apply_patch_call_output", "call_id": "c1", "status": "completed", "output": "Updated a.go"}
//
// The operation is create_file (diff: the new file's lines, each prefixed with '+'),
// update_file (diff: V4A chunks, as after '*** Update File:' in a Codex patch) or
// delete_file; its path is read as the dialect reads paths. It is applied as a one-file
// patch ([llmfs.Workspace.Patch]): journaled, all or nothing. When it fails, the output
// item has status "failed" and output "CODE: message", which tells the model what to fix;
// the error return is only for an item that cannot be answered (not an apply_patch_call,
// or no call_id).
func (tb *Toolbox) ApplyPatchCall(ctx context.Context, item json.RawMessage) (json.RawMessage, error) {
	var call struct {
		Type      string          `json:"type"`
		CallID    string          `json:"call_id"`
		Operation json.RawMessage `json:"operation"`
	}
	if err := json.Unmarshal(item, &call); err != nil {
		return nil, invalid("apply_patch_call: %v", err)
	}
	if call.Type != "apply_patch_call" || call.CallID == "" {
		return nil, invalid("not an apply_patch_call item with a call_id (type %q)", call.Type)
	}
	out := map[string]any{"type": "apply_patch_call_output", "call_id": call.CallID, "status": "completed"}
	text, err := tb.applyOperation(ctx, call.Operation)
	if err != nil {
		e := ErrorOf(err)
		out["status"], text = "failed", e.Code+": "+e.Message
	}
	out["output"] = text
	return Marshal(out)
}

// patchOperation is the operation of an apply_patch_call.
type patchOperation struct {
	Type string  `json:"type"`
	Path string  `json:"path"`
	Diff *string `json:"diff"`
}

// applyOperation applies op and says in a line what it did.
func (tb *Toolbox) applyOperation(ctx context.Context, raw json.RawMessage) (string, error) {
	var op patchOperation
	if err := json.Unmarshal(raw, &op); err != nil || len(raw) == 0 {
		return "", invalid("the operation must be an object {type, path, diff}")
	}
	if op.Path == "" || strings.ContainsAny(op.Path, "\n\r") {
		return "", invalid("the operation needs a path, on one line")
	}
	text, err := v4aPatch(op)
	if err != nil {
		return "", err
	}
	if !tb.ws.Settings().Mode.Allows(llmfs.OpEdit) || (op.Type == "delete_file" && !tb.ws.Settings().Mode.Allows(llmfs.OpDelete)) {
		return "", &llmfs.Error{Code: llmfs.CodePermissionDenied, Path: op.Path,
			Msg: fmt.Sprintf("the workspace is %s: %s is not allowed", tb.ws.Settings().Mode, op.Type)}
	}
	if op.Type == "create_file" {
		// A write in create mode rather than a V4A Add File, which would overwrite a
		// file that exists: create_file says the file is new.
		if _, err := tb.ws.Write(ctx, op.Path, text, llmfs.WriteOptions{Mode: llmfs.Create}); err != nil {
			return "", err
		}
		return "Created " + op.Path, nil
	}
	res, err := tb.ws.Patch(ctx, text, llmfs.PatchOptions{})
	if err != nil {
		return "", err
	}
	verb := map[string]string{"create_file": "Created", "update_file": "Updated", "delete_file": "Deleted"}[op.Type]
	line := verb + " " + op.Path
	for _, f := range res.Files {
		for _, m := range f.Matched {
			if m != llmfs.MatchExact {
				line += fmt.Sprintf(" (a hunk matched with %s differences forgiven)", m)
				break
			}
		}
	}
	return line, nil
}

// v4aPatch wraps an update or delete operation as a V4A patch of one file; for
// create_file it returns the new file's content.
func v4aPatch(op patchOperation) (string, error) {
	diff := ""
	if op.Diff != nil {
		diff = strings.TrimSuffix(*op.Diff, "\n") + "\n"
	}
	var head string
	switch op.Type {
	case "create_file":
		head = "*** Add File: "
	case "update_file":
		head = "*** Update File: "
	case "delete_file":
		return "*** Begin Patch\n*** Delete File: " + op.Path + "\n*** End Patch\n", nil
	default:
		return "", invalid("unknown operation type %q (known: create_file, update_file, delete_file)", op.Type)
	}
	if op.Diff == nil {
		return "", invalid("%s needs a diff", op.Type)
	}
	for line := range strings.Lines(diff) {
		// A header line would smuggle a second file into a one-file operation.
		if strings.HasPrefix(line, "*** ") && strings.TrimSpace(line) != "*** End of File" {
			return "", invalid("the diff of %s has a patch header line %q; give only the file's chunks", op.Type, strings.TrimSpace(line))
		}
	}
	if op.Type == "create_file" {
		return addedLines(diff)
	}
	return "*** Begin Patch\n" + head + op.Path + "\n" + diff + "*** End Patch\n", nil
}

// addedLines is the content of a create_file diff: each line with its '+' taken off.
func addedLines(diff string) (string, error) {
	if diff == "\n" {
		return "", nil // an empty new file
	}
	var sb strings.Builder
	n := 0
	for line := range strings.Lines(diff) {
		n++
		rest, ok := strings.CutPrefix(line, "+")
		if !ok {
			return "", invalid("line %d of the create_file diff does not start with '+': each line of a new file does", n)
		}
		sb.WriteString(rest)
	}
	return sb.String(), nil
}
