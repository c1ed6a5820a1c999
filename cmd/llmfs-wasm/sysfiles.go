//go:build js && wasm

package main

import (
	"context"

	"github.com/llmfs/llmfs/tools"
)

// systemFilesHook is what the browser build needs from package sysfiles (/AGENT.md
// generation and user-edit protection, seed 003): the place where that package plugs in.
//
// agentfile.go implements it over package sysfiles. It is built only with the build tag
// llmfs_sysfiles until package sysfiles (branch policy) is merged; then the tag goes
// from its //go:build line. With it, Ensure runs at every open (generating /AGENT.md
// when missing, refreshing it while nobody edited it, never overwriting an edit: the
// store remembers what was generated in its metadata, see store/idb's GetMeta), the
// instance's restoreAgentFile is the explicit "restore default", and features() reports
// agent_file: true, which enables the demo page's "Restore default" button.
type systemFilesHook interface {
	// Ensure generates the system files of tb's workspace that are missing or unedited.
	Ensure(ctx context.Context, tb *tools.Toolbox) error
	// Restore regenerates /AGENT.md even if the user edited it.
	Restore(ctx context.Context, tb *tools.Toolbox) error
}

// systemFiles is nil until package sysfiles is wired in (agentfile.go).
var systemFiles systemFilesHook
