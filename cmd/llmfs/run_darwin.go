package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/mount/nfs"
)

// On macOS, llmfs run serves the workspace over NFS on the loopback and mounts it with the
// system's NFS client (mount(8)); the changes are the run's ("run:<command>") all the same.

// nfsRun is a workspace served over NFS and mounted at dir.
type nfsRun struct {
	srv *nfs.Server
	dir string
}

func (e *env) mountRun(ctx context.Context, ws *llmfs.Workspace, dir string, opts mount.Options) (interface{ Unmount() error }, error) {
	srv, err := nfs.Serve(ctx, ws, "127.0.0.1:0", nfs.Options{Options: opts})
	if err != nil {
		return nil, err
	}
	if out, err := exec.Command("/sbin/mount", srv.MountArgs(dir)...).CombinedOutput(); err != nil {
		srv.Close()
		return nil, fmt.Errorf("%s: %v: %s", srv.MountCommand(dir), err, strings.TrimSpace(string(out)))
	}
	return &nfsRun{srv: srv, dir: dir}, nil
}

// Unmount unmounts dir (trying for a few seconds while it is busy) and stops the server,
// applying what is left.
func (r *nfsRun) Unmount() error {
	var err error
	for i := 0; i < 50; i++ {
		var out []byte
		if out, err = exec.Command("/sbin/umount", r.dir).CombinedOutput(); err == nil {
			break
		}
		err = fmt.Errorf("umount %s: %v: %s", r.dir, err, strings.TrimSpace(string(out)))
		time.Sleep(100 * time.Millisecond)
	}
	return errors.Join(err, r.srv.Close())
}
