// Package genai gives llmfs's file tools to Google's Gen AI SDK for Go
// (google.golang.org/genai): the tools of a tools.Toolbox as one *genai.Tool of function
// declarations whose parameters are JSON Schema (Tool), and the model's function calls
// answered as function responses, images as inline parts (Responses).
//
// Each call runs through tools.Toolbox.Call, so arguments are decoded strictly and every
// change goes through the workspace: its sandbox, policy, journal and store.
package genai

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "google.golang.org/genai"

	"github.com/llmfs/llmfs/tools"
)

// Tool returns every tool of tb as a function declaration of one *genai.Tool, for
// GenerateContentConfig.Tools. Parameters go as JSON Schema (ParametersJsonSchema), which
// the Gemini API takes whole, rather than the OpenAPI subset of genai.Schema.
func Tool(tb *tools.Toolbox) (*sdk.Tool, error) {
	defs := tb.Definitions()
	decls := make([]*sdk.FunctionDeclaration, 0, len(defs))
	for _, d := range defs {
		var schema map[string]any
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			return nil, fmt.Errorf("genai: tool %s: input schema: %w", d.Name, err)
		}
		decls = append(decls, &sdk.FunctionDeclaration{
			Name:                 d.Name,
			Description:          d.Description,
			ParametersJsonSchema: schema,
		})
	}
	return &sdk.Tool{FunctionDeclarations: decls}, nil
}

// Responses runs each function call and returns the parts that answer them, in order,
// for the user turn after the model's: genai.NewContentFromParts(parts, genai.RoleUser).
func Responses(ctx context.Context, tb *tools.Toolbox, calls []*sdk.FunctionCall) []*sdk.Part {
	parts := make([]*sdk.Part, 0, len(calls))
	for _, c := range calls {
		parts = append(parts, &sdk.Part{FunctionResponse: Call(ctx, tb, c)})
	}
	return parts
}

// Call runs one function call. The response holds the result object under "output", or
// the error object {"code", "message"} under "error", as the Gemini API documents; an
// image the call read comes as an inline part, its base64 left out of "output".
func Call(ctx context.Context, tb *tools.Toolbox, call *sdk.FunctionCall) *sdk.FunctionResponse {
	resp := &sdk.FunctionResponse{ID: call.ID, Name: call.Name}
	args, err := json.Marshal(call.Args)
	if err != nil {
		resp.Response = errorResponse(err)
		return resp
	}
	if call.Args == nil {
		args = []byte("{}")
	}
	res, err := tb.CallResult(ctx, call.Name, args)
	if err != nil {
		resp.Response = errorResponse(err)
		return resp
	}
	body := res.JSON
	if res.Structured != nil {
		body = res.Structured
	}
	var out any
	if err := json.Unmarshal(body, &out); err != nil {
		out = res.Text
	}
	resp.Response = map[string]any{"output": out}
	for _, img := range res.Images {
		resp.Parts = append(resp.Parts, &sdk.FunctionResponsePart{
			InlineData: &sdk.FunctionResponseBlob{MIMEType: img.MIMEType, Data: img.Data},
		})
	}
	return resp
}

func errorResponse(err error) map[string]any {
	e := tools.ErrorOf(err)
	return map[string]any{"error": map[string]any{"code": e.Code, "message": e.Message}}
}
