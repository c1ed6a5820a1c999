//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// defaultNFS is --nfs's default: none on Linux, which mounts through FUSE (and whose kernel
// here may have no NFS client).
const defaultNFS = ""

// mountRun mounts ws at dir for llmfs run: through FUSE.
func (e *env) mountRun(ctx context.Context, ws *llmfs.Workspace, dir string, opts mount.Options) (interface{ Unmount() error }, error) {
	return mount.Mount(ctx, ws, dir, opts)
}

// serveFUSE mounts ws at dir through FUSE until ctx ends or someone unmounts it.
func (e *env) serveFUSE(ctx context.Context, ws *llmfs.Workspace, dir string, opts mount.Options) error {
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
