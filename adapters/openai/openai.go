// Package openai gives llmfs's file tools to openai-go: the tools of a tools.Toolbox as
// Chat Completions and Responses tool definitions (ChatTools, ResponsesTools), a
// dispatcher that answers the model's tool calls with the messages or input items the
// next request takes (Dispatcher), and an executor for the hosted apply_patch tool,
// whose create_file, update_file and delete_file operations the application applies
// (ApplyPatch).
//
// Each call runs through tools.Toolbox.Call, so arguments are decoded strictly and every
// change goes through the workspace: its sandbox, policy, journal and store. A failure is
// answered to the model as its llmfs error object, {"code": ..., "message": ...}.
package openai

import (
	"encoding/json"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/llmfs/llmfs/tools"
)

// ChatTools returns every tool of tb as a Chat Completions function tool.
func ChatTools(tb *tools.Toolbox) ([]sdk.ChatCompletionToolUnionParam, error) {
	defs := tb.Definitions()
	out := make([]sdk.ChatCompletionToolUnionParam, 0, len(defs))
	for _, d := range defs {
		params, err := parameters(d)
		if err != nil {
			return nil, err
		}
		out = append(out, sdk.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        d.Name,
			Description: sdk.String(d.Description),
			Parameters:  params,
			Strict:      sdk.Bool(false),
		}))
	}
	return out, nil
}

// ResponsesTools returns every tool of tb as a Responses API tool: a function tool, or,
// for a tool with a grammar (the codex dialect's patch), a custom tool constrained by
// that Lark grammar, as Codex offers apply_patch to GPT-5.
func ResponsesTools(tb *tools.Toolbox) ([]responses.ToolUnionParam, error) {
	defs := tb.Definitions()
	out := make([]responses.ToolUnionParam, 0, len(defs))
	for _, d := range defs {
		if d.Grammar != "" {
			out = append(out, responses.ToolUnionParam{OfCustom: &responses.CustomToolParam{
				Name:        d.Name,
				Description: sdk.String(d.Description),
				Format: shared.CustomToolInputFormatUnionParam{OfGrammar: &shared.CustomToolInputFormatGrammarParam{
					Syntax: "lark", Definition: d.Grammar,
				}},
			}})
			continue
		}
		params, err := parameters(d)
		if err != nil {
			return nil, err
		}
		out = append(out, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
			Name:        d.Name,
			Description: sdk.String(d.Description),
			Parameters:  params,
			Strict:      sdk.Bool(false),
		}})
	}
	return out, nil
}

// ApplyPatchTool is the hosted apply_patch tool's definition, for ResponseNewParams.Tools
// beside ResponsesTools; answer its calls with ApplyPatch (the Dispatcher does).
func ApplyPatchTool() responses.ToolUnionParam {
	return responses.ToolUnionParam{OfApplyPatch: &responses.ApplyPatchToolParam{}}
}

func parameters(d tools.Definition) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(d.InputSchema, &m); err != nil {
		return nil, fmt.Errorf("openai: tool %s: input schema: %w", d.Name, err)
	}
	return m, nil
}
