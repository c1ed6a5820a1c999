package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// Asking before destroying: with [Options.Ask], the operations named there are confirmed
// with the person through the client before they run. A client of the 2026-07-28
// revision gets an input request (elicitation/create inside the call's result, SEP-2322)
// and sends the call again with the answer; an older one gets an elicitation/create
// request while the call waits. An answer other than accept, a client without
// elicitation, or one that cannot be asked (a stateless request of an older revision)
// makes the call fail with PERMISSION_DENIED, and nothing is changed.

// The operations [Options.Ask] may name.
const (
	AskDelete = "delete" // file_delete, resources/delete
	AskMove   = "move"   // file_move
	AskApply  = "apply"  // review_apply, on the reviewer's server ([NewReviewer])
)

// askInputID is the id of the confirmation among a call's input requests.
const askInputID = "io.github.llmfs/confirm"

// askKind returns the operation of the file tool name that [Options.Ask] can guard, if
// any. review_apply ([AskApply]) is the reviewer's, which asks with [askPolicy.tool].
func askKind(name string) (string, bool) {
	switch name {
	case "file_delete":
		return AskDelete, true
	case "file_move":
		return AskMove, true
	}
	return "", false
}

// askPolicy is the set of operations [Options.Ask] names. A server made by [New] keeps
// one; so can any other face (the reviewer's review_apply), asking with its tool method.
type askPolicy map[string]bool

// askSet checks the operations of [Options.Ask] and returns them as a set.
func askSet(ops []string) (askPolicy, error) {
	set := askPolicy{}
	for _, op := range ops {
		if !slices.Contains([]string{AskDelete, AskMove, AskApply}, op) {
			return nil, fmt.Errorf("ask: unknown operation %q (want delete, move or apply)", op)
		}
		set[op] = true
	}
	return set, nil
}

// confirmSchema is the form of a confirmation: one boolean, on by default, so that a
// client showing the form needs only its accept button.
func confirmSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"confirm": map[string]any{"type": "boolean", "title": "Confirm", "default": true},
		},
	}
}

// refusal is the error of an operation the person did not confirm.
func refusal(message, why string) error {
	return &llmfs.Error{Code: llmfs.CodePermissionDenied,
		Msg: fmt.Sprintf("not done: %s (asked %q); nothing was changed", why, message)}
}

// accepted returns nil if res confirms, else the refusal.
func accepted(res *mcp.ElicitResult, message string) error {
	switch {
	case res == nil:
		return refusal(message, "no answer came")
	case res.Action == "accept" && res.Content["confirm"] != false:
		return nil
	case res.Action == "accept":
		return refusal(message, "the person did not confirm")
	case res.Action == "cancel":
		return refusal(message, "the person cancelled")
	}
	return refusal(message, "the person declined")
}

// confirm asks the person of session ss, through an elicitation request, whether the
// operation op described by message may run, if [Options.Ask] names op; caps are the
// client's capabilities (nil: the session's).
func (a askPolicy) confirm(ctx context.Context, ss *mcp.ServerSession, caps *mcp.ClientCapabilities, op, message string) error {
	if !a[op] {
		return nil
	}
	if caps == nil && ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			caps = ip.Capabilities
		}
	}
	if ss == nil || caps == nil || caps.Elicitation == nil {
		return refusal(message, "the server asks before this operation, and the client cannot ask the person (no elicitation capability)")
	}
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: confirmSchema()})
	if err != nil {
		return refusal(message, "the person could not be asked: "+err.Error())
	}
	return accepted(res, message)
}

// tool confirms the tool call req of the operation op, described by message, before it
// runs, if the policy names op. It returns nil to run the call, or the result to answer
// with instead: a refusal, or, for a client of 2026-07-28, the input request whose
// answer comes with the call again.
func (a askPolicy) tool(ctx context.Context, req *mcp.CallToolRequest, op, message string) *mcp.CallToolResult {
	if !a[op] {
		return nil
	}
	state := "confirm:" + store.Hash([]byte(req.Params.Name+"\x00"+string(req.Params.Arguments)))
	if ans, ok := req.Params.InputResponses[askInputID].(*mcp.ElicitResult); ok && req.Params.RequestState == state {
		if err := accepted(ans, message); err != nil {
			return result(nil, err)
		}
		return nil
	}
	if req.ProtocolVersion() >= "2026-07-28" {
		if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
			return result(nil, refusal(message, "the server asks before this operation, and the client cannot ask the person (no elicitation capability)"))
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{askInputID: &mcp.ElicitParams{Message: message, RequestedSchema: confirmSchema()}},
			RequestState:  state,
		}
	}
	if err := a.confirm(ctx, req.Session, req.ClientCapabilities(), op, message); err != nil {
		return result(nil, err)
	}
	return nil
}

// askMessage is the question for a call of tool name with arguments args.
func askMessage(name string, args json.RawMessage) string {
	var a struct{ Path, Source, Destination string }
	_ = json.Unmarshal(args, &a) // a bad argument is the toolbox's to refuse, once confirmed
	switch name {
	case "file_delete":
		return "delete " + a.Path + "?"
	case "file_move":
		return "move " + a.Source + " to " + a.Destination + "?"
	}
	return strings.ReplaceAll(name, "_", " ") + "?"
}
