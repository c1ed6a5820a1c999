//go:build !js && !wasip1

package main

import (
	"context"
	"fmt"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/mount/nfs"
)

// serveNFS serves ws over NFSv3 on addr until ctx ends, and prints the command that mounts
// it at dir (macOS's mount(8)).
func (e *env) serveNFS(ctx context.Context, ws *llmfs.Workspace, addr, dir string, opts mount.Options) error {
	srv, err := nfs.Serve(ctx, ws, addr, nfs.Options{Options: opts})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "llmfs: %s served over NFS on %s; mount it with:\n  %s\nunmount it with 'umount %s' before Ctrl-C stops serving\n", ws.Root(), srv.Addr(), srv.MountCommand(dir), dir)
	<-ctx.Done()
	return srv.Close()
}
