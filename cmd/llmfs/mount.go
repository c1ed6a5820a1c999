//go:build linux

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// llmfs mount and llmfs run: the workspace as a file system (package mount), so that the
// changes of every process take the same path as a tool call.

// init adds the commands after cli.go's init made the list (files initialize in name order).
func init() { commands = append(commands, mountCmd, runCmd) }

// mountFlags are the flags of mount and run beside the workspace flags.
type mountFlags struct {
	ignore stringList
	debug  bool
}

func (f *mountFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.ignore, "journal-ignore", "never journal paths matching `GLOB` (repeatable; matched against each path and its parents, e.g. bin or *.o): build outputs")
	fs.BoolVar(&f.debug, "debug", false, "log every FUSE request")
}

var mountCmd = &command{
	name:  "mount",
	args:  "MOUNTPOINT [workspace flags] [--review] [--journal-ignore GLOB]",
	short: "serve the workspace as a file system at MOUNTPOINT (FUSE) until interrupted",
	long: `Every process's changes under MOUNTPOINT go through the workspace as a tool call's do: the
sandbox, deny rules (a denied name does not exist and cannot be created), the work mode
(read-only: EROFS; read-write: files that existed before cannot be removed), quotas (EDQUOT)
and --review. They are journaled once per file, when the file system has been quiet for
--apply-after, as made by "mount:<pid>:<command>"; files created and removed in between leave
no entry. The default deny rules hide .git: to let git work, use --no-default-deny with your
own --deny rules (see docs/mount.md). Stop with Ctrl-C or fusermount3 -u MOUNTPOINT.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		var mf mountFlags
		mf.register(fs)
		quiet := fs.Duration("apply-after", time.Second, "journal the changes once the file system has been quiet for `DURATION`")
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one MOUNTPOINT")
			}
			dir, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			if err := clearStale(e, dir); err != nil {
				return err
			}
			opts := mount.Options{JournalIgnore: mf.ignore, Debug: mf.debug, Quiet: *quiet}
			ws, err := e.openMount(ctx, &opts)
			if err != nil {
				return err
			}
			srv, err := mount.Mount(ctx, ws, dir, opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "llmfs: %s mounted at %s; Ctrl-C or 'fusermount3 -u %s' unmounts\n", ws.Root(), dir, dir)
			done := make(chan struct{})
			go func() { srv.Wait(); close(done) }()
			select {
			case <-ctx.Done():
			case <-done:
			}
			return srv.Unmount()
		}
	},
}

// clearStale clears a mountpoint left by a killed mount, or says how to.
func clearStale(e *env, dir string) error {
	err := mount.CheckMountpoint(dir)
	var stale *mount.StaleError
	if !errors.As(err, &stale) {
		return err
	}
	if out, uerr := exec.Command("fusermount3", "-u", dir).CombinedOutput(); uerr != nil {
		return fmt.Errorf("%w (it failed here: %s)", err, out)
	}
	fmt.Fprintf(e.stderr, "llmfs: cleared the stale mount at %s left by a killed llmfs mount (fusermount3 -u %s)\n", dir, dir)
	return mount.CheckMountpoint(dir)
}

// openMount opens the workspace to mount and fills opts: under --review the pending layer
// of review is mounted as it is; otherwise a session layer of the mount's own, in a
// temporary SQLite file, over the workspace.
func (e *env) openMount(ctx context.Context, opts *mount.Options) (*llmfs.Workspace, error) {
	ws, err := e.ws.open()
	if err != nil {
		return nil, err
	}
	opts.Log = func(format string, args ...any) { fmt.Fprintf(e.stderr, format+"\n", args...) }
	if e.ws.review.ov != nil {
		opts.JournalIgnore = nil // under review every change waits for a person
		return ws, nil
	}
	sess, err := mount.NewSession(ctx, ws, opts)
	if err != nil {
		return nil, err
	}
	// Closed after the store beneath (closers run in order): the layer is applied first.
	*e.ws.closers = append(*e.ws.closers, sess.Close)
	return sess.WS, nil
}
