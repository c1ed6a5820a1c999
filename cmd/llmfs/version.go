//go:build !js && !wasip1

package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/llmfs/llmfs/internal/buildinfo"
)

var versionCmd = &command{
	name:  "version",
	short: "print the version of llmfs and the revision it was built from (also --version)",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(ctx context.Context, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected argument %q", args[0])
			}
			fmt.Fprintf(e.stdout, "llmfs %s\n", buildinfo.Read())
			return nil
		}
	},
}
