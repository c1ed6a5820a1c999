//go:build !js && !wasip1

package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// llmfs mount and llmfs run: the workspace as a file system (package mount: FUSE on Linux,
// NFS elsewhere), so that the changes of every process take the same path as a tool call.

// init adds the command after cli.go's init made the list (files initialize in name order).
func init() { commands = append(commands, mountCmd) }

// mountFlags are the flags of mount and run beside the workspace flags.
type mountFlags struct {
	ignore stringList
	debug  bool
}

func (f *mountFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.ignore, "journal-ignore", "never journal paths matching `GLOB` (repeatable; matched against each path and its parents, e.g. bin or *.o): build outputs")
	fs.BoolVar(&f.debug, "debug", false, "log every FUSE or NFS request")
}

var mountCmd = &command{
	name:  "mount",
	args:  "MOUNTPOINT [workspace flags] [--review] [--journal-ignore GLOB] [--nfs ADDR]",
	short: "serve the workspace as a file system at MOUNTPOINT (FUSE; NFS on macOS) until interrupted",
	long: `Every process's changes under MOUNTPOINT go through the workspace as a tool call's do: the
sandbox, deny rules (a denied name does not exist and cannot be created), the work mode
(read-only: EROFS; read-write: files that existed before cannot be removed), quotas (EDQUOT)
and --review. They are journaled once per file, when the file system has been quiet for
--apply-after, as made by "mount:<pid>:<command>"; files created and removed in between leave
no entry. The default deny rules hide .git: to let git work, use --no-default-deny with your
own --deny rules (see docs/mount.md). Stop with Ctrl-C or fusermount3 -u MOUNTPOINT.

With --nfs ADDR (the default on macOS, at 127.0.0.1 on a free port) the workspace is served
over NFSv3 on ADDR instead, and the mount command to run is printed; changes are journaled
as made by "nfs:<client address>" (NFS names no process).`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		var mf mountFlags
		mf.register(fs)
		quiet := fs.Duration("apply-after", time.Second, "journal the changes once the file system has been quiet for `DURATION`")
		nfsAddr := fs.String("nfs", defaultNFS, "serve over NFSv3 on `ADDR` (host:port; port 0: any free one) and print the mount command, instead of FUSE")
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one MOUNTPOINT")
			}
			dir, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			if *nfsAddr == "" {
				if err := clearStale(e, dir); err != nil {
					return err
				}
			}
			opts := mount.Options{JournalIgnore: mf.ignore, Debug: mf.debug, Quiet: *quiet}
			ws, err := e.openMount(ctx, &opts)
			if err != nil {
				return err
			}
			if *nfsAddr != "" {
				return e.serveNFS(ctx, ws, *nfsAddr, dir, opts)
			}
			return e.serveFUSE(ctx, ws, dir, opts)
		}
	},
}

// openMount opens the workspace to mount and fills opts: under --review the pending layer
// of review is mounted as it is; otherwise a session layer of the mount's own, in a
// temporary directory, over the workspace.
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
