//go:build !js && !wasip1

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/llmfs/llmfs/tools"
)

var callCmd = &command{
	name:  "call",
	args:  "TOOL ['ARGS-JSON'] [--dialect agentool|rtc|codex|anthropic|gemini] [--history-tools] [--root DIR | --store DSN --workspace ID] [workspace flags]",
	short: "run one tool call and print its JSON result",
	long: `ARGS-JSON is the tool's arguments as a JSON object; "-" or nothing reads it from standard input.
On failure the coded error {"code": ..., "message": ...} goes to standard error and the exit status is 1.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		dialect := fs.String("dialect", "agentool", "tool `DIALECT`: agentool, rtc, codex, anthropic or gemini")
		history := fs.Bool("history-tools", false, "also offer the history tools (history, undo); the changes of every call are journaled as cli")
		var requireRead optBool
		fs.Var(&requireRead, "require-read", "require reading a file before editing or overwriting it; default: on in rtc, off in agentool. A one-shot call is its own session, so with it on every edit or overwrite of an existing file is refused: use --require-read=false")
		return func(ctx context.Context, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("want a tool name and its JSON arguments")
			}
			var raw []byte
			if len(args) == 1 || args[1] == "-" {
				var err error
				if raw, err = io.ReadAll(e.stdin); err != nil {
					return err
				}
			} else {
				raw = []byte(args[1])
			}
			e.ws.dialect, e.ws.history = tools.Dialect(*dialect), *history
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			// Read-before-edit: the flag, else the configuration file, else the dialect's
			// default.
			var rr *bool
			if requireRead.set {
				rr = &requireRead.v
			} else if cfg, err := e.ws.loadConfig(); err == nil && cfg.RequireRead != nil {
				rr = cfg.RequireRead
			}
			tb, err := tools.NewWithOptions(ws, tools.Dialect(*dialect), &tools.Options{RequireRead: rr, History: *history})
			if err != nil {
				return usagef("%v", err)
			}
			out, err := tb.Call(ctx, args[0], json.RawMessage(raw))
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "%s\n", out)
			return err
		}
	},
}
