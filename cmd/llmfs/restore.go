//go:build !js && !wasip1

package main

import (
	"context"
	"flag"
	"fmt"
	"path"

	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

var restoreCmd = &command{
	name:  "restore-default",
	args:  "PATH [--dialect agentool|rtc|codex|anthropic|gemini] [workspace flags]",
	short: "regenerate a system file such as /AGENT.md, discarding edits",
	long: `A system file (AGENT.md) is kept current by llmfs until someone edits it; from then on llmfs
leaves it alone. restore-default regenerates it from its default generator and makes llmfs
keep it current again. --dialect and --mode decide which tools it describes.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		dialect := fs.String("dialect", "agentool", "tool `DIALECT` the file describes: agentool, rtc, codex, anthropic or gemini")
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one PATH")
			}
			if _, err := tools.Definitions(tools.Dialect(*dialect), "full"); err != nil {
				return usagef("%v", err)
			}
			e.ws.dialect = tools.Dialect(*dialect)
			e.ws.noSysfiles = true
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			if err := sysfiles.Restore(ctx, ws, args[0], e.ws.sysOptions(ws)); err != nil {
				return err
			}
			rel := args[0]
			if path.IsAbs(rel) {
				if r := ws.Paths().Rel(rel); r != rel {
					rel = r
				}
			}
			_, err = fmt.Fprintln(e.stdout, path.Join(ws.Root(), rel))
			return err
		}
	},
}
