// Package genkit gives llmfs's file tools to Firebase Genkit for Go: the tools of a
// tools.Toolbox as ai.Tool values whose input schema is the definition's JSON Schema
// (Tools), registered with a Genkit instance for ai.WithTools (Define).
//
// Each call runs through tools.Toolbox.Call, so arguments are decoded strictly and every
// change goes through the workspace: its sandbox, policy, journal and store. A failed
// call does not stop the generation: its output is the error object {"code", "message"},
// for the model to read and correct.
package genkit

import (
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	gk "github.com/firebase/genkit/go/genkit"

	"github.com/llmfs/llmfs/tools"
)

// Tools returns every tool of tb as an unregistered ai.Tool (ai.NewTool with ai.WithInputSchema).
func Tools(tb *tools.Toolbox) ([]ai.Tool, error) {
	return build(tb, func(name, desc string, schema map[string]any, fn ai.ToolFunc[any, any]) ai.Tool {
		return ai.NewTool(name, desc, fn, ai.WithInputSchema(schema))
	})
}

// Define registers every tool of tb with g and returns them, for ai.WithTools.
func Define(g *gk.Genkit, tb *tools.Toolbox) ([]ai.Tool, error) {
	return build(tb, func(name, desc string, schema map[string]any, fn ai.ToolFunc[any, any]) ai.Tool {
		return gk.DefineTool(g, name, desc, fn, ai.WithInputSchema(schema))
	})
}

// Refs returns ts as the references ai.WithTools takes.
func Refs(ts []ai.Tool) []ai.ToolRef {
	out := make([]ai.ToolRef, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

type maker func(name, desc string, schema map[string]any, fn ai.ToolFunc[any, any]) ai.Tool

func build(tb *tools.Toolbox, newTool maker) ([]ai.Tool, error) {
	defs := tb.Definitions()
	out := make([]ai.Tool, 0, len(defs))
	for _, d := range defs {
		var schema map[string]any
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			return nil, fmt.Errorf("genkit: tool %s: input schema: %w", d.Name, err)
		}
		out = append(out, newTool(d.Name, d.Description, schema, run(tb, d.Name)))
	}
	return out, nil
}

// run returns the function of one tool: the input as Genkit decoded it, marshalled back
// to JSON for the strict decoder; the output the result object, or the error object.
func run(tb *tools.Toolbox, name string) ai.ToolFunc[any, any] {
	return func(ctx *ai.ToolContext, input any) (any, error) {
		args, err := json.Marshal(input)
		if err != nil {
			return tools.ErrorOf(err), nil
		}
		if input == nil {
			args = []byte("{}")
		}
		res, err := tb.CallResult(ctx, name, args)
		if err != nil {
			return tools.ErrorOf(err), nil
		}
		var out any
		if err := json.Unmarshal(res.JSON, &out); err != nil {
			return res.Text, nil
		}
		return out, nil
	}
}
