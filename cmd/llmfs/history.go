//go:build !js && !wasip1

package main

import (
	"context"
	"flag"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/llmfs/llmfs"
)

// The history commands: log, diff, undo, checkpoint, restore. They read and change the
// journal of the workspace the usual flags name; none creates system files.

var logCmd = &command{
	name:  "log",
	args:  "[PATH] [--actor A] [--since TIME] [--limit N] [--json] [workspace flags]",
	short: "list the changes made to the workspace, newest first",
	long: `Each line is one change: its id, time (UTC), actor, operation, path, and the lines it added and
removed. PATH limits the list to a file or a directory's subtree. --since takes a time
(2026-01-02T15:04:05Z or 2026-01-02) or a duration back from now (90m, 2h). --json prints an
array of objects (id, set, time, actor, op, path, other, before, after, state, added, removed).`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		actor := fs.String("actor", "", "only the changes of `ACTOR` (cli, mcp, web, system, run:make, ...); a glob such as 'mount:*:git' matches several")
		since := fs.String("since", "", "only the changes since `TIME` (a time, a date, or a duration such as 2h)")
		limit := fs.Int("limit", 0, "at most `N` changes (0: all)")
		asJSON := fs.Bool("json", false, "print a JSON array")
		return func(ctx context.Context, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one PATH")
			}
			if *limit < 0 {
				return usagef("--limit must be 0 or more")
			}
			f := llmfs.HistoryFilter{Actor: *actor, Limit: *limit}
			glob := strings.ContainsAny(*actor, "*?[")
			if glob {
				if _, err := path.Match(*actor, ""); err != nil {
					return usagef("--actor: bad pattern %q", *actor)
				}
				f.Actor, f.Limit = "", 0 // matched below, then limited
			}
			if len(args) == 1 {
				f.Path = args[0]
			}
			if *since != "" {
				t, err := parseSince(*since, time.Now())
				if err != nil {
					return usagef("%v", err)
				}
				f.Since = t
			}
			ws, err := e.openHistory()
			if err != nil {
				return err
			}
			var actorGlob string
			if glob {
				actorGlob = *actor
			}
			return printLog(ctx, e.stdout, ws, f, actorGlob, *limit, *asJSON)
		}
	},
}

// parseSince reads a time, a date, or a duration back from now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since: %q is neither a time (2006-01-02T15:04:05Z, 2006-01-02) nor a duration (2h)", s)
}

// openHistory opens the workspace for a history command: no system files are made.
func (e *env) openHistory() (*llmfs.Workspace, error) {
	e.ws.noSysfiles = true
	return e.ws.open()
}

var diffCmd = &command{
	name:  "diff",
	args:  "ID|CHECKPOINT [--set] [workspace flags]",
	short: "show a change, or everything since a checkpoint, as a unified diff",
	long: `With a change id (from llmfs log), the diff of that change; with --set, of its whole change set.
With a checkpoint name, the diff of everything changed since the checkpoint. Paths are
relative to the workspace root.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		set := fs.Bool("set", false, "diff the whole change set of the change ID")
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one change ID or CHECKPOINT name")
			}
			ws, err := e.openHistory()
			if err != nil {
				return err
			}
			var d string
			if id, perr := strconv.ParseInt(args[0], 10, 64); perr == nil {
				if *set {
					d, err = ws.History().DiffSet(ctx, id)
				} else {
					var c llmfs.Change
					if c, err = ws.History().ChangeByID(ctx, id); err == nil {
						d, err = ws.History().Diff(ctx, []llmfs.Change{c})
					}
				}
			} else {
				d, err = ws.History().DiffSince(ctx, args[0])
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(e.stdout, d)
			return err
		}
	},
}

var undoCmd = &command{
	name:  "undo",
	args:  "ID... [--set] [workspace flags]",
	short: "undo changes, if nothing changed them since",
	long: `Puts back what each path held before the changes with the given ids (from llmfs log), all at
once: only if every path still holds what those changes left. Otherwise it fails with
FILE_CHANGED, shows what changed since, and touches nothing. With --set, each ID stands for
its whole change set. The undo is itself a change: undo it to redo.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		set := fs.Bool("set", false, "undo the whole change set of each ID")
		return func(ctx context.Context, args []string) error {
			if len(args) == 0 {
				return usagef("want at least one change ID")
			}
			var ids []int64
			for _, a := range args {
				id, err := strconv.ParseInt(a, 10, 64)
				if err != nil || id <= 0 {
					return usagef("not a change id: %q", a)
				}
				ids = append(ids, id)
			}
			ws, err := e.openHistory()
			if err != nil {
				return err
			}
			var res *llmfs.UndoResult
			if *set {
				var cs []llmfs.Change
				for _, id := range ids {
					c, err := ws.History().ChangeByID(ctx, id)
					if err != nil {
						return err
					}
					more, err := ws.History().List(ctx, llmfs.HistoryFilter{Set: c.Set})
					if err != nil {
						return err
					}
					cs = append(cs, more...)
				}
				ids = ids[:0]
				for _, c := range cs {
					ids = append(ids, c.ID)
				}
			}
			if res, err = ws.History().Undo(ctx, ids...); err != nil {
				return err
			}
			return undone(e, ws, ids, res)
		}
	},
}

var checkpointCmd = &command{
	name:  "checkpoint",
	args:  "[NAME] [workspace flags]",
	short: "name the present point of the history, to diff or restore to later; without NAME, list the checkpoints",
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one NAME")
			}
			ws, err := e.openHistory()
			if err != nil {
				return err
			}
			if len(args) == 0 {
				return printCheckpoints(ctx, e, ws)
			}
			cp, err := ws.History().Checkpoint(ctx, args[0])
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "checkpoint %s at change %d\n", cp.Name, cp.ID)
			return err
		}
	},
}

var restoreCheckpointCmd = &command{
	name:  "restore",
	args:  "NAME [workspace flags]",
	short: "undo every change made since the checkpoint NAME",
	long: `Undoes, as one change, everything changed since the checkpoint: only if no file changed other
than through llmfs since; otherwise it fails with FILE_CHANGED and touches nothing. The
restore is itself a change (undo it to go forward again). It says what it undid, then the
paths put back. A NAME that is no checkpoint fails with the list of those there are.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one checkpoint NAME")
			}
			ws, err := e.openHistory()
			if err != nil {
				return err
			}
			return restoreCheckpoint(ctx, e, ws, args[0])
		}
	},
}
