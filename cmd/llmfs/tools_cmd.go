//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

var toolsCmd = &command{
	name:  "tools",
	args:  "[--dialect agentool|rtc|codex|anthropic|gemini] [--mode MODE] [--format llmfs|openai|openai-chat|anthropic|anthropic-builtin|gemini|mcp] [--history-tools]",
	short: "print the tool definitions (name, description, JSON Schema, hints) as JSON",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		dialect := fs.String("dialect", "agentool", "tool `DIALECT`: agentool, rtc, codex, anthropic or gemini")
		mode := fs.String("mode", "full", "work `MODE`: only the tools it allows are printed")
		history := fs.Bool("history-tools", false, "include the history tools (history, undo), as 'llmfs mcp --history-tools' offers them")
		format := fs.String("format", "llmfs", "`FORMAT` of the definitions: llmfs, or the shape the openai (Responses), openai-chat (Chat Completions), anthropic, anthropic-builtin (Claude's built-in editor and memory declared by type), gemini or mcp API takes")
		return func(ctx context.Context, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected argument %q", args[0])
			}
			if !llmfs.Mode(*mode).Valid() {
				return usagef("--mode must be read-only, read-write or full, got %q", *mode)
			}
			defs, err := tools.DefinitionsFor(tools.Dialect(*dialect), llmfs.Mode(*mode), &tools.Options{History: *history})
			if err != nil {
				return usagef("%v", err)
			}
			out, err := tools.Format(defs, *format)
			if err != nil {
				return usagef("%v", err)
			}
			var buf bytes.Buffer
			if err := json.Indent(&buf, out, "", "  "); err != nil {
				return err
			}
			buf.WriteByte('\n')
			_, err = e.stdout.Write(buf.Bytes())
			return err
		}
	},
}
