package mount

import (
	"path"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/overlay"
)

// Options configure a mount.
type Options struct {
	// Actor, when set, is the journal's actor of every change ("run:<command>"); otherwise
	// the face names it: "mount:<pid>:<command name>" of the process that made it (FUSE),
	// "nfs:<client address>" (NFS, which names no process).
	Actor string
	// Layer is the session layer the workspace given to [NewCore] works on; nil: the changes
	// go straight to the workspace (under --review the workspace is a pending layer already).
	Layer *overlay.Overlay
	// Base is the workspace beneath Layer, where applied changes land. Required with Layer.
	Base *llmfs.Workspace
	// Quiet is how long the file system must be quiet before the layer is applied; 0 means
	// only at fsync and at unmount (llmfs run: one change set).
	Quiet time.Duration
	// JournalIgnore are globs (path.Match, matched against the path and each of its
	// parents) of paths never journaled: changes to them go straight to the workspace's
	// store, through its rules but without a journal entry.
	JournalIgnore []string
	// SpillDir is where write buffers are kept (default: the OS temporary directory).
	SpillDir string
	// Log receives one line per applied change set and per conflict; nil: discard.
	Log func(format string, args ...any)
	// Debug logs every FUSE request (the FUSE face only).
	Debug bool
}

// ignored reports whether p is never journaled (Options.JournalIgnore).
func (m *Core) ignored(p string) bool {
	for _, g := range m.opts.JournalIgnore {
		for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
			if ok, _ := path.Match(g, q); ok {
				return true
			}
			if ok, _ := path.Match(g, path.Base(q)); ok {
				return true
			}
		}
	}
	return false
}
