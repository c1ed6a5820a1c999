//go:build js && wasm

package main

import (
	"context"
	"syscall/js"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// systemFilesHook is what the browser build needs from package sysfiles (/AGENT.md
// generation and user-edit protection, seed 003): the place where that package plugs in.
//
// policy.go implements it over package sysfiles. It is built only with the build tag
// llmfs_policy until branch policy is merged; then the tag goes from its //go:build line. With it, Ensure runs at every open (generating /AGENT.md
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

// systemFiles is nil until package sysfiles is wired in (policy.go).
var systemFiles systemFilesHook

// policyOptions reads the options that need branch policy (quota, deny) into o; it is nil
// until policy.go is built, and open then refuses those options rather than ignore a limit.
var policyOptions func(v js.Value, o *llmfs.Options) error
