//go:build !js && !wasip1

package main

import (
	"context"
	"encoding/json"
	"flag"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

var toolsCmd = &command{
	name:  "tools",
	args:  "[--dialect agentool|rtc] [--mode MODE]",
	short: "print the tool definitions (name, description, JSON Schema, hints) as JSON",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		dialect := fs.String("dialect", "agentool", "tool `DIALECT`: agentool or rtc")
		mode := fs.String("mode", "full", "work `MODE`: only the tools it allows are printed")
		return func(ctx context.Context, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected argument %q", args[0])
			}
			if !llmfs.Mode(*mode).Valid() {
				return usagef("--mode must be read-only, read-write or full, got %q", *mode)
			}
			defs, err := tools.Definitions(tools.Dialect(*dialect), llmfs.Mode(*mode))
			if err != nil {
				return usagef("%v", err)
			}
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			return enc.Encode(defs)
		}
	},
}
