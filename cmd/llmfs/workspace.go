//go:build !js && !wasip1

package main

import (
	"flag"
	"fmt"

	"github.com/llmfs/llmfs"
)

// wsFlags are the flags of every command that opens a workspace.
type wsFlags struct {
	root        string
	relaxed     bool
	mode        string
	requireRead bool
	limits      llmfs.Limits
}

func (f *wsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.root, "root", "", "workspace root `DIR` (default: the current directory)")
	fs.BoolVar(&f.relaxed, "relaxed", false, "let paths leave the root (absolute paths and '..' are followed)")
	fs.StringVar(&f.mode, "mode", "full", "work `MODE`: read-only, read-write or full")
}

func (f *wsFlags) open() (*llmfs.Workspace, error) {
	mode := llmfs.Mode(f.mode)
	if !mode.Valid() {
		return nil, usagef("--mode must be read-only, read-write or full, got %q", f.mode)
	}
	ws, err := llmfs.Open(&llmfs.Options{Root: f.root, Relaxed: f.relaxed, Mode: mode, RequireRead: f.requireRead, Limits: f.limits})
	if err != nil {
		return nil, fmt.Errorf("opening the workspace: %w", err)
	}
	return ws, nil
}
