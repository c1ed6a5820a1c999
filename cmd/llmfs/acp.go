//go:build !js && !wasip1

package main

import (
	"context"
	"flag"

	"github.com/llmfs/llmfs/internal/buildinfo"
)

var acpCmd = &command{
	name:  "acp",
	args:  "[--root DIR] [--add-dir DIR]... [--mode MODE] [--approve ask|all|none] [--prompt TEXT] -- AGENT-COMMAND [ARGS...]",
	short: "run an ACP agent headless, serving its file reads and writes from the sandboxed root",
	long: `The agent command after -- is started as a subprocess speaking the Agent Client Protocol on
its stdin and stdout. llmfs initializes it with the fs capabilities the mode allows, opens a
session on the root, sends the prompt (--prompt, or standard input), prints the agent's updates
as text, answers permission requests per --approve, and ends with a summary of changed files.
The agent's working directory is the root (--root, default the current directory), made
absolute, which is also the session's cwd; --add-dir grants further roots. A path
outside them, or one the deny rules protect, is refused with a message that says so.
The workspace flags (deny rules, quotas, config file) apply to the agent's reads and writes.
Names, titles and messages from the agent are printed with control characters escaped.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		var dirs stringList
		fs.Var(&dirs, "add-dir", "a further `DIR` the session may reach (repeatable)")
		approve := fs.String("approve", acpApproveAsk, "answer permission requests with `POLICY`: ask, all or none")
		prompt := fs.String("prompt", "", "the prompt `TEXT` (default: read from standard input)")
		return func(ctx context.Context, args []string) error {
			if len(args) == 0 {
				return usagef("no agent command (put it after --)")
			}
			if e.ws.storeDSN != "" || e.ws.workspace != "" {
				return usagef("--store and --workspace do not apply: an ACP agent reads and writes host files, so acp serves host directories only")
			}
			switch *approve {
			case acpApproveAsk, acpApproveAll, acpApproveNone:
			default:
				return usagef("--approve must be ask, all or none, got %q", *approve)
			}
			e.ws.actor = "acp"
			opts, _, err := e.ws.options()
			if err != nil {
				return err
			}
			text, answers, closeAnswers, err := acpPrompt(*prompt, e.ws.set("prompt"), e.stdin, *approve)
			if err != nil {
				return usagef("%v", err)
			}
			defer closeAnswers()
			_, err = runACPClient(ctx, acpClientOptions{
				Root: opts.Root, Roots: dirs, Mode: opts.Mode, Workspace: opts,
				Approve: *approve, Prompt: text, Input: answers, Command: args,
				Stdout: e.stdout, Stderr: e.stderr, ClientVersion: buildinfo.Version(),
			})
			return err
		}
	},
}
