//go:build linux || darwin

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// init adds the command after mount.go's (files initialize in name order).
func init() { commands = append(commands, runCmd) }

var runCmd = &command{
	name:  "run",
	args:  "[workspace flags] [--review] [--journal-ignore GLOB] -- CMD [ARGS...]",
	short: "run CMD in the workspace mounted at a private mountpoint; its changes are one change set",
	long: `Mounts the workspace at a private temporary mountpoint, runs CMD there (in the directory
that corresponds to the current one, when it is inside the root), unmounts, and prints what CMD
changed (+/- lines), the change set's id and the command that undoes it. Everything CMD did is
one change set by "run:<command>", so one 'llmfs undo --set ID' takes it back; files it created
and removed leave no entry. Under --review the changes stay pending instead ('llmfs review').
Exits with CMD's status.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		var mf mountFlags
		mf.register(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) == 0 {
				return usagef("want -- CMD [ARGS...]")
			}
			return e.runIn(ctx, mf, args)
		}
	},
}

func (e *env) runIn(ctx context.Context, mf mountFlags, args []string) error {
	actor := "run:" + filepath.Base(args[0])
	opts := mount.Options{Actor: actor, JournalIgnore: mf.ignore, Debug: mf.debug}
	ws, err := e.openMount(ctx, &opts)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "llmfs-run-*")
	if err != nil {
		return err
	}
	defer os.Remove(dir)
	var before int64
	if opts.Base != nil && opts.Base.Settings().Journaled {
		if cs, err := opts.Base.History().List(ctx, llmfs.HistoryFilter{Limit: 1}); err == nil && len(cs) > 0 {
			before = cs[0].ID
		}
	}
	srv, err := e.mountRun(ctx, ws, dir, opts)
	if err != nil {
		return err
	}
	wd := dir
	if e.ws.storeDSN == "" {
		wd = workDir(ws, dir)
	}
	code, runErr := runCommand(ctx, e, args, wd)
	if err := srv.Unmount(); err != nil {
		return errors.Join(runErr, fmt.Errorf("unmounting %s: %w", dir, err))
	}
	if runErr != nil {
		return runErr
	}
	if opts.Base == nil {
		err = e.printPending(ctx)
	} else {
		err = e.printRun(ctx, opts.Base, actor, before)
	}
	if err != nil {
		return err
	}
	if code != 0 {
		return &exitError{code}
	}
	return nil
}

// workDir is where CMD runs on a host directory: the mount's counterpart of the current
// directory when that is inside the root, else the mount's root.
func workDir(ws *llmfs.Workspace, dir string) string {
	cwd, err := os.Getwd()
	if err != nil {
		return dir
	}
	rel, err := filepath.Rel(ws.Root(), cwd)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return dir
	}
	return filepath.Join(dir, rel)
}

// runCommand runs args in dir and returns its exit status; SIGINT and SIGTERM (ctx) are
// passed on to it.
func runCommand(ctx context.Context, e *env, args []string, dir string) (int, error) {
	if !strings.Contains(args[0], "/") {
		if _, err := exec.LookPath(args[0]); err != nil {
			return 0, err
		}
	}
	// The command starts in a shell that changes into the mount itself, not with cmd.Dir:
	// a child whose working directory the fork sets (Go forks with vfork) waits in the
	// kernel on this very process's FUSE server while the forking thread keeps its P, and
	// a garbage collection that starts meanwhile can then never stop the world: the
	// mount, and llmfs with it, hang.
	cmd := exec.Command("/bin/sh", append([]string{"-c", `cd "$0" && exec "$@"`, dir}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	cmd.Env = append(os.Environ(), "PWD="+dir)
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			cmd.Process.Signal(syscall.SIGTERM)
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		if st, ok := xe.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 128 + int(st.Signal()), nil
		}
		return xe.ExitCode(), nil
	}
	return 0, err
}

// printRun prints the changes actor made since the change before: the run's change set.
func (e *env) printRun(ctx context.Context, ws *llmfs.Workspace, actor string, before int64) error {
	if !ws.Settings().Journaled {
		return nil
	}
	cs, err := ws.History().List(ctx, llmfs.HistoryFilter{After: before, Actor: actor})
	if err != nil {
		return err
	}
	if len(cs) == 0 {
		fmt.Fprintf(e.stderr, "llmfs run: no changes\n")
		return nil
	}
	sets := map[int64]bool{}
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		sets[c.Set] = true
		added, removed := ws.History().Lines(ctx, c)
		line := fmt.Sprintf("  %-6s %s", c.Op, e.name(ws.Paths().Rel(c.Path)))
		if c.Other != "" {
			line += " <- " + e.name(ws.Paths().Rel(c.Other))
		}
		fmt.Fprintf(e.stderr, "%s +%d -%d\n", line, added, removed)
	}
	var ids []string
	for s := range sets {
		ids = append(ids, fmt.Sprint(s))
	}
	fmt.Fprintf(e.stderr, "llmfs run: change set %s by %s; undo it with: llmfs undo --set %s%s\n",
		strings.Join(ids, ","), actor, strings.Join(ids, " "), e.wsArgs(ws))
	return nil
}

// wsArgs are the flags that name ws again, for a command to print.
func (e *env) wsArgs(ws *llmfs.Workspace) string {
	if e.ws.storeDSN != "" {
		return " --store " + e.ws.storeDSN + " --workspace " + e.ws.workspace
	}
	return " --root " + ws.Root()
}

// printPending prints what waits for review after a run under --review.
func (e *env) printPending(ctx context.Context) error {
	ps, err := e.ws.review.ov.Pending(ctx)
	if err != nil {
		return err
	}
	for _, p := range ps {
		fmt.Fprintf(e.stderr, "  pending %s\n", e.name(p.Path))
	}
	fmt.Fprintf(e.stderr, "llmfs run: %d change(s) pending review; see 'llmfs review --review'\n", len(ps))
	return nil
}
