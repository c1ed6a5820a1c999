package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/tools/agenttoolset"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// AgentToolsetOptions configure AgentToolset.
type AgentToolsetOptions struct {
	// Workdir is the directory the model believes it works in (the self-hosted runner's
	// AgentToolContext.Workdir): an absolute path below it names the same file relative
	// to the workspace root. Empty: only "/" is the workspace root.
	Workdir string
	// RequireRead switches read-before-edit on or off; nil keeps llmfs's default for
	// virtual paths, on (tools.Options.RequireRead): write over an existing file and edit
	// need a read of it first, and fail with FILE_CHANGED if it changed since.
	RequireRead *bool
}

// AgentToolset returns the file tools of Anthropic's agent_toolset_20260401 (read, write,
// edit, glob and grep, with the names, descriptions and input schemas of the SDK's own
// tools/agenttoolset) working on ws instead of the host disk: paths are confined to the
// workspace (relative ones, absolute ones with "/" its root, or below opts.Workdir),
// edits forgive small whitespace and quote differences, changes are journaled, and the
// store is whichever ws has. Tools the workspace's mode forbids are left out. There is no
// bash: a shell cannot be confined to a workspace.
//
// Give each agent session its own workspace session (ws.With(llmfs.NewSession())), so that one
// session's reads never vouch for another's edits; ToolsFunc does.
func AgentToolset(ws *llmfs.Workspace, opts *AgentToolsetOptions) ([]sdk.BetaTool, error) {
	if opts == nil {
		opts = &AgentToolsetOptions{}
	}
	tb, err := tools.NewWithOptions(ws, tools.RTC, &tools.Options{RequireRead: opts.RequireRead})
	if err != nil {
		return nil, err
	}
	offered := map[string]bool{}
	for _, d := range tb.Definitions() {
		offered[d.Name] = true
	}
	var out []sdk.BetaTool
	for _, spec := range agentSpecs {
		if !offered[spec.via] {
			continue
		}
		out = append(out, &agentTool{agentSpec: spec, tb: tb, workdir: opts.Workdir})
	}
	return out, nil
}

// ToolsFunc returns a ToolsFunc for lib/environments.EnvironmentWorkerOptions: each
// claimed session gets the agent_toolset_20260401 file tools on its own session of ws
// (ws.With(llmfs.NewSession())), with the session's Workdir mapped onto the workspace root. It offers no
// bash; append agenttoolset.BetaBashTool(env) in a ToolsFunc of your own if the session
// may run commands on the host.
func ToolsFunc(ws *llmfs.Workspace, opts *AgentToolsetOptions) func(env *agenttoolset.AgentToolContext) []sdk.BetaTool {
	return func(env *agenttoolset.AgentToolContext) []sdk.BetaTool {
		o := AgentToolsetOptions{}
		if opts != nil {
			o = *opts
		}
		if env != nil && o.Workdir == "" {
			o.Workdir = env.Workdir
		}
		ts, err := AgentToolset(ws.With(llmfs.NewSession()), &o)
		if err != nil {
			// The rtc dialect always builds on a valid workspace; a workspace that failed
			// to open reports its error on every call instead.
			return []sdk.BetaTool{&brokenTool{err: err}}
		}
		return ts
	}
}

// agentSpec is one tool of agent_toolset_20260401: its schema, the rtc tool it runs
// as, and how its arguments become that tool's.
type agentSpec struct {
	name, description string
	properties        map[string]any
	required          []string
	via               string
	args              func(in map[string]any, vpath func(string) string) (map[string]any, error)
}

func prop(typ, description string) map[string]any {
	return map[string]any{"type": typ, "description": description}
}

// agentSpecs are the file tools of agent_toolset_20260401, their names, descriptions and
// schemas as anthropic-sdk-go's tools/agenttoolset declares them.
var agentSpecs = []agentSpec{
	{
		name: "read", description: "Read a UTF-8 text file rooted at the workdir.", via: "read",
		properties: map[string]any{
			"file_path": prop("string", "Path of the file to read, rooted at the workdir (absolute paths inside it are allowed)."),
			"view_range": map[string]any{
				"type":        "array",
				"items":       map[string]any{"type": "integer"},
				"description": "[start_line, end_line] 1-indexed inclusive",
			},
		},
		required: []string{"file_path"},
		args:     readArgs,
	},
	{
		name: "write", description: "Write a UTF-8 text file rooted at the workdir, creating parent directories as needed.", via: "write",
		properties: map[string]any{
			"file_path": prop("string", "Path of the file to write, rooted at the workdir (absolute paths inside it are allowed)."),
			"content":   prop("string", "Full file contents to write."),
		},
		required: []string{"file_path", "content"},
		args:     renamePath("file_path"),
	},
	{
		name: "edit", description: "Replace a unique occurrence of old_string with new_string in a file (set replace_all to replace every occurrence).", via: "edit",
		properties: map[string]any{
			"file_path":   prop("string", "Path of the file to edit, rooted at the workdir (absolute paths inside it are allowed)."),
			"old_string":  prop("string", "Substring to find and replace."),
			"new_string":  prop("string", "Replacement text."),
			"replace_all": prop("boolean", "Replace every occurrence instead of requiring a unique match."),
		},
		required: []string{"file_path", "old_string", "new_string"},
		args:     renamePath("file_path"),
	},
	{
		name: "glob", description: "List paths matching a glob pattern (e.g. **/*.go), newest first.", via: "find",
		properties: map[string]any{
			"pattern": prop("string", "Glob pattern, e.g. **/*.go (** matches any depth)."),
			"path":    prop("string", "Directory to search in. Defaults to the workdir."),
		},
		required: []string{"pattern"},
		args:     renamePath("path"),
	},
	{
		name: "grep", description: "Search file contents for a regex. Uses ripgrep if available, otherwise a built-in walker.", via: "grep",
		properties: map[string]any{
			"pattern": prop("string", "Regular expression to search for."),
			"path":    prop("string", "Directory to search in. Defaults to the workdir."),
		},
		required: []string{"pattern"},
		args: func(in map[string]any, vpath func(string) string) (map[string]any, error) {
			out, err := renamePath("path")(in, vpath)
			if err != nil {
				return nil, err
			}
			// The stock grep answers with matching lines, path and line number.
			out["output_mode"] = "content"
			out["-n"] = true
			return out, nil
		},
	},
}

// renamePath returns an argument mapper that moves key to the rtc tools' "path" as a
// virtual path and keeps every other argument as it is (the strict decoder refuses
// unknown ones).
func renamePath(key string) func(map[string]any, func(string) string) (map[string]any, error) {
	return func(in map[string]any, vpath func(string) string) (map[string]any, error) {
		out := make(map[string]any, len(in))
		for k, v := range in {
			if k != key {
				out[k] = v
			}
		}
		if v, ok := in[key]; ok {
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%s must be a string", key)
			}
			out["path"] = vpath(s)
		}
		return out, nil
	}
}

// readArgs maps view_range [first, last] (last -1 or absent: to the end) to offset and
// limit.
func readArgs(in map[string]any, vpath func(string) string) (map[string]any, error) {
	vr, has := in["view_range"]
	delete(in, "view_range")
	out, err := renamePath("file_path")(in, vpath)
	if err != nil || !has || vr == nil {
		return out, err
	}
	r, ok := vr.([]any)
	if !ok || len(r) == 0 || len(r) > 2 {
		return nil, fmt.Errorf("view_range must be [start_line, end_line]")
	}
	first, ok := r[0].(json.Number)
	if !ok {
		return nil, fmt.Errorf("view_range must hold integers")
	}
	out["offset"] = first
	if len(r) == 2 {
		last, ok := r[1].(json.Number)
		if !ok {
			return nil, fmt.Errorf("view_range must hold integers")
		}
		a, errA := first.Int64()
		b, errB := last.Int64()
		if errA != nil || errB != nil {
			return nil, fmt.Errorf("view_range must hold integers")
		}
		if b != -1 {
			if b < a {
				return nil, fmt.Errorf("view_range: end_line %d is before start_line %d", b, a)
			}
			out["limit"] = b - a + 1
		}
	}
	return out, nil
}

// agentTool is one agent_toolset_20260401 file tool on a Toolbox of the rtc dialect.
type agentTool struct {
	agentSpec
	tb      *tools.Toolbox
	workdir string
}

func (t *agentTool) Name() string        { return t.name }
func (t *agentTool) Description() string { return t.description }
func (t *agentTool) InputSchema() sdk.BetaToolInputSchemaParam {
	return sdk.BetaToolInputSchemaParam{Properties: t.properties, Required: t.required}
}

func (t *agentTool) Execute(ctx context.Context, input json.RawMessage) ([]sdk.BetaToolResultBlockParamContentUnion, error) {
	var in map[string]any
	dec := json.NewDecoder(strings.NewReader(string(input)))
	dec.UseNumber() // integers stay integers for the strict decoder
	if err := dec.Decode(&in); err != nil || in == nil {
		return nil, invalid(t.name, "the input must be a JSON object")
	}
	args, err := t.args(in, t.vpath)
	if err != nil {
		return nil, invalid(t.name, err.Error())
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, invalid(t.name, err.Error())
	}
	return call(ctx, t.tb, t.via, raw)
}

// vpath maps a path as the model gives it to the workspace's virtual path: relative to
// the root, or absolute below the workdir, or absolute with "/" the root.
func (t *agentTool) vpath(p string) string {
	if t.workdir != "" {
		wd := path.Clean(t.workdir)
		if p == wd {
			return "/"
		}
		if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(wd, "/")+"/"); ok {
			return "/" + rest
		}
	}
	if !strings.HasPrefix(p, "/") {
		return "/" + p
	}
	return p
}

func invalid(tool, msg string) error {
	return &Error{ErrorObject: tools.ErrorObject{Code: string(llmfs.CodeInvalidArgument), Message: tool + ": " + msg}}
}

// brokenTool stands in for a toolset that could not be built, and says why on each call.
type brokenTool struct{ err error }

func (b *brokenTool) Name() string        { return "read" }
func (b *brokenTool) Description() string { return "Unavailable: " + b.err.Error() }
func (b *brokenTool) InputSchema() sdk.BetaToolInputSchemaParam {
	return sdk.BetaToolInputSchemaParam{}
}
func (b *brokenTool) Execute(context.Context, json.RawMessage) ([]sdk.BetaToolResultBlockParamContentUnion, error) {
	return nil, toolError(b.err)
}
