package eino

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

	"github.com/llmfs/llmfs/tools"
)

// Tools returns every tool of tb as a tool.InvokableTool, for a compose.ToolsNode or an
// ADK ChatModelAgent. A failed call is not a Go error, which would stop the agent: its
// result is the error object {"code", "message"}, for the model to read and correct.
func Tools(tb *tools.Toolbox) ([]tool.BaseTool, error) {
	defs := tb.Definitions()
	out := make([]tool.BaseTool, 0, len(defs))
	for _, d := range defs {
		info, err := ToolInfo(d)
		if err != nil {
			return nil, err
		}
		out = append(out, &invokable{info: info, tb: tb})
	}
	return out, nil
}

// ToolInfo converts a definition into Eino's tool description, its parameters the
// definition's JSON Schema.
func ToolInfo(d tools.Definition) (*schema.ToolInfo, error) {
	var js jsonschema.Schema
	if err := json.Unmarshal(d.InputSchema, &js); err != nil {
		return nil, fmt.Errorf("eino: tool %s: input schema: %w", d.Name, err)
	}
	return &schema.ToolInfo{Name: d.Name, Desc: d.Description, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(&js)}, nil
}

type invokable struct {
	info *schema.ToolInfo
	tb   *tools.Toolbox
}

var _ tool.InvokableTool = (*invokable)(nil)

func (t *invokable) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

func (t *invokable) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	res, err := t.tb.CallResult(ctx, t.info.Name, json.RawMessage(args))
	if err != nil {
		return string(tools.ErrorJSON(err)), nil
	}
	return res.Text, nil
}
