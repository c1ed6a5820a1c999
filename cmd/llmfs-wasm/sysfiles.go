//go:build js && wasm

package main

import (
	"context"

	"github.com/llmfs/llmfs"
)

// systemFilesHook is what the browser build needs from package sysfiles (/AGENT.md
// generation and user-edit protection, seed 003): it is the hook where that package
// plugs in.
//
// To wire it once sysfiles lands: set systemFiles in this file to an adapter over the
// package. Ensure then runs at every open (generating /AGENT.md when it is missing, never
// overwriting a file the user edited), instance.restoreAgentFile becomes the explicit
// "restore default", and features() reports agent_file: true, which enables the demo
// page's "Restore default" button. If sysfiles protects the file by wrapping the
// workspace or its store instead, wrap in open (main.go) before tools.New.
type systemFilesHook interface {
	// Ensure generates /AGENT.md if it is missing.
	Ensure(ctx context.Context, ws *llmfs.Workspace) error
	// Restore regenerates /AGENT.md even if the user edited it.
	Restore(ctx context.Context, ws *llmfs.Workspace) error
}

// systemFiles is nil until package sysfiles is wired in.
var systemFiles systemFilesHook
