// Package anthropic gives llmfs's file tools to anthropic-sdk-go: every tool of a
// tools.Toolbox as an anthropic.BetaTool for the SDK's tool runners (Tools), and the file
// tools of the agent_toolset_20260401 tool set (read, write, edit, glob, grep) with the
// SDK's own names and schemas but llmfs's semantics (AgentToolset), ready for the
// self-hosted Managed Agents runner as a lib/environments ToolsFunc (ToolsFunc).
//
// Each tool runs through tools.Toolbox.Call, so the model's arguments are decoded strictly
// and every change goes through the workspace: its sandbox, policy, journal and store.
// A failure reaches the model as an error result whose text starts with the llmfs error
// code ("FILE_NOT_FOUND: ..."), as the MCP server reports it.
package anthropic

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/llmfs/llmfs/tools"
)

// Tools returns every tool of tb as an anthropic.BetaTool, in tb's order, for
// client.Beta.Messages.NewToolRunner or a session tool runner.
func Tools(tb *tools.Toolbox) ([]sdk.BetaTool, error) {
	defs := tb.Definitions()
	out := make([]sdk.BetaTool, 0, len(defs))
	for _, d := range defs {
		schema, err := InputSchema(d.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("anthropic: tool %s: %w", d.Name, err)
		}
		out = append(out, &toolboxTool{def: d, schema: schema, tb: tb})
	}
	return out, nil
}

// Definitions returns every tool of tb as the tool definitions of a Messages request
// (BetaMessageNewParams.Tools), for a loop of one's own.
func Definitions(tb *tools.Toolbox) ([]sdk.BetaToolUnionParam, error) {
	ts, err := Tools(tb)
	if err != nil {
		return nil, err
	}
	return ToolParams(ts), nil
}

// ToolParams turns tools into request definitions, as the SDK's tool runner sends them.
func ToolParams(ts []sdk.BetaTool) []sdk.BetaToolUnionParam {
	out := make([]sdk.BetaToolUnionParam, 0, len(ts))
	for _, t := range ts {
		out = append(out, sdk.BetaToolUnionParam{OfTool: &sdk.BetaToolParam{
			Name:        t.Name(),
			Description: sdk.String(t.Description()),
			InputSchema: t.InputSchema(),
		}})
	}
	return out
}

// InputSchema converts a JSON Schema object into the SDK's input schema: properties and
// required in their fields, every other keyword (additionalProperties and the like) kept.
func InputSchema(schema json.RawMessage) (sdk.BetaToolInputSchemaParam, error) {
	var m map[string]any
	if err := json.Unmarshal(schema, &m); err != nil {
		return sdk.BetaToolInputSchemaParam{}, fmt.Errorf("input schema: %w", err)
	}
	var out sdk.BetaToolInputSchemaParam
	if p, ok := m["properties"]; ok {
		out.Properties = p
	}
	if r, ok := m["required"].([]any); ok {
		for _, v := range r {
			if s, ok := v.(string); ok {
				out.Required = append(out.Required, s)
			}
		}
	}
	delete(m, "type")
	delete(m, "properties")
	if len(out.Required) > 0 {
		delete(m, "required") // else an empty list stays as it is: the field would drop it
	}
	if len(m) > 0 {
		out.ExtraFields = m
	}
	return out, nil
}

// toolboxTool is one tool of a Toolbox as an anthropic.BetaTool.
type toolboxTool struct {
	def    tools.Definition
	schema sdk.BetaToolInputSchemaParam
	tb     *tools.Toolbox
}

func (t *toolboxTool) Name() string                              { return t.def.Name }
func (t *toolboxTool) Description() string                       { return t.def.Description }
func (t *toolboxTool) InputSchema() sdk.BetaToolInputSchemaParam { return t.schema }

func (t *toolboxTool) Execute(ctx context.Context, input json.RawMessage) ([]sdk.BetaToolResultBlockParamContentUnion, error) {
	return call(ctx, t.tb, t.def.Name, input)
}

// call runs one tool and turns its result into tool-result blocks: the text the model
// reads, then each image it read.
func call(ctx context.Context, tb *tools.Toolbox, name string, input json.RawMessage) ([]sdk.BetaToolResultBlockParamContentUnion, error) {
	res, err := tb.CallResult(ctx, name, input)
	if err != nil {
		return nil, toolError(err)
	}
	return Blocks(res), nil
}

// Blocks renders a tool's result as tool-result content: its text, then its images.
func Blocks(res *tools.Result) []sdk.BetaToolResultBlockParamContentUnion {
	out := []sdk.BetaToolResultBlockParamContentUnion{{OfText: &sdk.BetaTextBlockParam{Text: res.Text}}}
	for _, img := range res.Images {
		out = append(out, sdk.BetaToolResultBlockParamContentUnion{OfImage: &sdk.BetaImageBlockParam{
			Source: sdk.BetaImageBlockParamSourceUnion{OfBase64: &sdk.BetaBase64ImageSourceParam{
				Data:      base64.StdEncoding.EncodeToString(img.Data),
				MediaType: sdk.BetaBase64ImageSourceMediaType(img.MIMEType),
			}},
		}})
	}
	return out
}

// Error is a tool's failure: the llmfs error code and message. Its text, which the SDK's
// runners show the model in an is_error result, starts with the code.
type Error struct {
	tools.ErrorObject
	err error
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }
func (e *Error) Unwrap() error { return e.err }

func toolError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{ErrorObject: tools.ErrorOf(err), err: err}
}
