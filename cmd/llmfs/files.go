//go:build !js && !wasip1

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/termtext"
)

// The friendly one-shots: the core operations for people, with plain output.

var readCmd = &command{
	name:  "read",
	args:  "PATH [--offset N] [--limit N]",
	short: "print a text file, or a range of its lines",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		offset := fs.Int("offset", 1, "first `LINE` to print, from 1")
		limit := fs.Int("limit", 0, "most `LINES` to print (0: all)")
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one PATH")
			}
			if *offset < 1 || *limit < 0 {
				return usagef("--offset must be >= 1 and --limit >= 0")
			}
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			// A person asked for the file: it streams to stdout as it is, with no caps,
			// and memory stays bounded whatever its size.
			n, err := ws.ReadTo(ctx, args[0], llmfs.ReadOptions{Offset: *offset, Limit: *limit}, e.stdout)
			if err != nil {
				return err
			}
			if n == 0 && *offset > 1 {
				// Nothing printed: say whether the file ended before the offset, as the
				// tools do, rather than leave an empty output that reads as an empty file.
				res, err := ws.Read(ctx, args[0], llmfs.ReadOptions{Offset: *offset, Limit: 1})
				if err == nil && res.PastEnd() {
					fmt.Fprintf(e.stderr, "llmfs read: %s: %s\n", termtext.Name(args[0]), res.PastEndNote())
				}
			}
			return nil
		}
	},
}

var writeCmd = &command{
	name:  "write",
	args:  "PATH [CONTENT] [--append | --create]",
	short: "write a file from CONTENT or standard input, creating parent directories",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		appendFlag := fs.Bool("append", false, "add to the end of the file")
		create := fs.Bool("create", false, "fail if the file exists")
		return func(ctx context.Context, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("want PATH and optional CONTENT")
			}
			if *appendFlag && *create {
				return usagef("--append and --create exclude each other")
			}
			var content string
			if len(args) == 2 {
				content = args[1]
			} else {
				b, err := io.ReadAll(e.stdin)
				if err != nil {
					return err
				}
				content = string(b)
			}
			mode := llmfs.Overwrite
			switch {
			case *appendFlag:
				mode = llmfs.AppendTo
			case *create:
				mode = llmfs.Create
			}
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			ws = ws.With(llmfs.RequireRead(false)) // see editCmd
			res, err := ws.Write(ctx, args[0], content, llmfs.WriteOptions{Mode: mode})
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(e.stdout, e.name(res.Path))
			return err
		}
	},
}

var editCmd = &command{
	name:  "edit",
	args:  "PATH OLD NEW [--all]",
	short: "replace the exact text OLD with NEW in a file and print the diff",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		all := fs.Bool("all", false, "replace every occurrence (otherwise OLD must occur once)")
		return func(ctx context.Context, args []string) error {
			if len(args) != 3 {
				return usagef("want PATH, OLD and NEW")
			}
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			// A configuration's require_read is for agents' sessions: a one-shot is a
			// session of its own that cannot have read the file, and a person typed it.
			ws = ws.With(llmfs.RequireRead(false))
			res, err := ws.Edit(ctx, args[0], args[1], args[2], *all)
			if err != nil {
				return err
			}
			_, err = io.WriteString(e.stdout, res.Diff)
			return err
		}
	},
}

var lsCmd = &command{
	name:  "ls",
	args:  "[PATH]",
	short: "list a directory, sorted by name (directories end in /)",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one PATH")
			}
			p := "."
			if len(args) == 1 {
				p = args[0]
			}
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			entries, err := ws.List(ctx, p)
			if err != nil {
				return err
			}
			var sb strings.Builder
			for _, en := range entries {
				if en.Type == llmfs.TypeDirectory {
					fmt.Fprintf(&sb, "%12s  %s/\n", "-", e.name(en.Name))
				} else {
					fmt.Fprintf(&sb, "%12d  %s\n", en.Size, e.name(en.Name))
				}
			}
			_, err = io.WriteString(e.stdout, sb.String())
			return err
		}
	},
}

// pathCommand makes a one-shot that takes one path and prints the absolute path the
// operation returns.
func pathCommand(name, short string, op func(ws *llmfs.Workspace, ctx context.Context, p string) (string, error)) *command {
	return &command{
		name:  name,
		args:  "PATH",
		short: short,
		setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
			e.ws.register(fs)
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("want one PATH")
				}
				ws, err := e.ws.open()
				if err != nil {
					return err
				}
				p, err := op(ws, ctx, args[0])
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(e.stdout, e.name(p))
				return err
			}
		},
	}
}

var (
	mkdirCmd = pathCommand("mkdir", "create a directory and its missing parents", (*llmfs.Workspace).Mkdir)
	rmCmd    = pathCommand("rm", "delete a file (not a directory)", (*llmfs.Workspace).Delete)
)

// twoPathCommand makes a one-shot that moves or copies SRC to DST.
func twoPathCommand(name, short string, op func(ws *llmfs.Workspace, ctx context.Context, src, dst string) (*llmfs.MoveResult, error)) *command {
	return &command{
		name:  name,
		args:  "SRC DST",
		short: short,
		setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
			e.ws.register(fs)
			return func(ctx context.Context, args []string) error {
				if len(args) != 2 {
					return usagef("want SRC and DST")
				}
				ws, err := e.ws.open()
				if err != nil {
					return err
				}
				res, err := op(ws, ctx, args[0], args[1])
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(e.stdout, e.name(res.Destination))
				return err
			}
		},
	}
}

var (
	mvCmd = twoPathCommand("mv", "move or rename a file; fails if DST exists", (*llmfs.Workspace).Move)
	cpCmd = twoPathCommand("cp", "copy a file; fails if DST exists", (*llmfs.Workspace).Copy)
)
