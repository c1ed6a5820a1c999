//go:build !linux && !js && !wasip1

package main

import (
	"context"
	"errors"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
)

// defaultNFS is --nfs's default: macOS and the rest have no FUSE here, so they are served
// over NFS on the loopback, on a free port.
const defaultNFS = "127.0.0.1:0"

func (e *env) serveFUSE(ctx context.Context, ws *llmfs.Workspace, dir string, opts mount.Options) error {
	return errors.New("llmfs mount: FUSE is Linux only here; serve over NFS with --nfs 127.0.0.1:0")
}

func clearStale(e *env, dir string) error { return nil }
