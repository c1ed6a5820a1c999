package openai

import (
	"context"
	"encoding/base64"
	"encoding/json"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmfs/llmfs/tools"
)

// Dispatcher runs the model's tool calls on a Toolbox and answers them in the shape the
// next request takes. Unknown tools and bad arguments are answered as errors to the
// model, never returned as Go errors: the loop goes on and the model can correct itself.
type Dispatcher struct {
	tb *tools.Toolbox
}

// NewDispatcher returns a dispatcher for tb's tools; hosted apply_patch calls go to
// tb's workspace.
func NewDispatcher(tb *tools.Toolbox) *Dispatcher { return &Dispatcher{tb: tb} }

// Call runs one tool and returns the text to give the model: the result, or the error
// object {"code", "message"} with isError set. args is the call's JSON arguments, or a
// custom tool's free-form input.
func (d *Dispatcher) Call(ctx context.Context, name, args string) (output string, isError bool) {
	res, err := d.tb.CallResult(ctx, name, json.RawMessage(args))
	if err != nil {
		return string(tools.ErrorJSON(err)), true
	}
	return res.Text, false
}

// ChatToolMessages runs every tool call of an assistant message and returns the tool
// messages that answer them, in order, to append after the message itself.
func (d *Dispatcher) ChatToolMessages(ctx context.Context, msg sdk.ChatCompletionMessage) []sdk.ChatCompletionMessageParamUnion {
	out := make([]sdk.ChatCompletionMessageParamUnion, 0, len(msg.ToolCalls))
	for _, tc := range msg.ToolCalls {
		var text string
		switch tc.Type {
		case "custom":
			text, _ = d.Call(ctx, tc.Custom.Name, tc.Custom.Input)
		default:
			text, _ = d.Call(ctx, tc.Function.Name, tc.Function.Arguments)
		}
		out = append(out, sdk.ToolMessage(text, tc.ID))
	}
	return out
}

// ResponsesOutputs runs every function, custom and apply_patch call among a response's
// output items and returns the input items that answer them, in order. The next request
// takes them after the response's own output (or with PreviousResponseID set).
func (d *Dispatcher) ResponsesOutputs(ctx context.Context, items []responses.ResponseOutputItemUnion) []responses.ResponseInputItemUnionParam {
	var out []responses.ResponseInputItemUnionParam
	for _, item := range items {
		switch item.Type {
		case "function_call":
			fc := item.AsFunctionCall()
			out = append(out, d.functionOutput(ctx, fc.CallID, fc.Name, fc.Arguments))
		case "custom_tool_call":
			cc := item.AsCustomToolCall()
			text, _ := d.Call(ctx, cc.Name, cc.Input)
			out = append(out, responses.ResponseInputItemParamOfCustomToolCallOutput(cc.CallID, text))
		case "apply_patch_call":
			out = append(out, ApplyPatch(ctx, d.tb.Workspace(), item.AsApplyPatchCall()))
		}
	}
	return out
}

// functionOutput answers a function call: its text, and each image it read as an
// input_image, so a model that reads a picture sees it.
func (d *Dispatcher) functionOutput(ctx context.Context, callID, name, args string) responses.ResponseInputItemUnionParam {
	res, err := d.tb.CallResult(ctx, name, json.RawMessage(args))
	var item responses.ResponseInputItemUnionParam
	switch {
	case err != nil:
		item = responses.ResponseInputItemParamOfFunctionCallOutput(string(tools.ErrorJSON(err)))
	case len(res.Images) == 0:
		item = responses.ResponseInputItemParamOfFunctionCallOutput(res.Text)
	default:
		list := responses.ResponseFunctionCallOutputItemListParam{
			{OfInputText: &responses.ResponseInputTextContentParam{Text: res.Text}},
		}
		for _, img := range res.Images {
			url := "data:" + img.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
			list = append(list, responses.ResponseFunctionCallOutputItemUnionParam{
				OfInputImage: &responses.ResponseInputImageContentParam{ImageURL: sdk.String(url)},
			})
		}
		item = responses.ResponseInputItemParamOfFunctionCallOutput(list)
	}
	item.OfFunctionCallOutput.CallID = sdk.String(callID)
	return item
}
