//go:build js && wasm && llmfs_sysfiles

// This file needs package sysfiles (branch policy). Once it is merged, remove
// "&& llmfs_sysfiles" from the build line above so that every browser build has /AGENT.md.

package main

import (
	"context"

	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

func init() { systemFiles = agentFile{} }

// agentFile wires package sysfiles into the browser build.
type agentFile struct{}

// options describes the toolbox's tools to sysfiles; paths are virtual in the browser.
func (agentFile) options(tb *tools.Toolbox) *sysfiles.Options {
	opts := &sysfiles.Options{Virtual: true}
	for _, d := range tb.Definitions() {
		opts.Tools = append(opts.Tools, sysfiles.Tool{Name: d.Name, Description: d.Description, ReadOnly: d.ReadOnly})
	}
	return opts
}

func (a agentFile) Ensure(ctx context.Context, tb *tools.Toolbox) error {
	if !sysfiles.Wanted(tb.Workspace(), tb.Dialect() == tools.RTC) {
		return nil
	}
	_, err := sysfiles.Ensure(ctx, tb.Workspace(), a.options(tb))
	return err
}

func (a agentFile) Restore(ctx context.Context, tb *tools.Toolbox) error {
	return sysfiles.Restore(ctx, tb.Workspace(), "/AGENT.md", a.options(tb))
}
