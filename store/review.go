package store

import "context"

// Review: a store that keeps an agent's changes pending over a base (store/overlay) lets a
// person list them, see their diff, and apply or discard them. The llmfs core reaches it
// through [Reviewable], so that every face (CLI, console, reviewer MCP server) reviews
// through one API, [llmfs.Workspace.Review].

// PendingKind says what a pending change does to a base path.
type PendingKind string

// The kinds of pending change.
const (
	PendingCreated  PendingKind = "created"
	PendingModified PendingKind = "modified"
	PendingDeleted  PendingKind = "deleted"
	PendingMoved    PendingKind = "moved"
)

// A PendingChange is one pending change, per file.
type PendingChange struct {
	Path    string      `json:"path"`
	Kind    PendingKind `json:"kind"`
	From    string      `json:"from,omitempty"` // the base path a moved file came from
	Added   int         `json:"added"`
	Removed int         `json:"removed"`
	Binary  bool        `json:"binary,omitempty"`
	Hunks   int         `json:"hunks"`
	// Version names this change as it is now: a hash of the pending content and of the
	// merge base it is reviewed against. A person's apply or discard that names the
	// version it saw is refused with [ErrChanged] once it moved.
	Version string `json:"version"`
}

// A Resolved is what an apply or discard did with one pending change.
type Resolved struct {
	PendingChange
	Action string `json:"action"` // "applied" or "discarded"
	Hunks  []int  `json:"applied_hunks,omitempty"`
}

// A ReviewRequest says which pending changes to apply or discard, and on whose behalf.
type ReviewRequest struct {
	Paths []string // at or below these (all if none)
	Hunks []int    // only these hunks (1-based) of each text file (all if none)
	// Expect maps paths to the versions the person saw: a change whose version moved, or
	// that is gone, fails the whole request with [ErrChanged], nothing touched.
	Expect map[string]string
	Actor  string // who the base's journal says resolved the changes
	// Allow, when set, is asked about each change the request would apply, before any is:
	// an error refuses the whole request, nothing touched (the workspace's mode and deny
	// rules).
	Allow func(PendingChange) error
}

// Reviewable is a [Layered] store whose pending changes can be reviewed.
type Reviewable interface {
	Layered
	// Pending lists the pending changes, sorted by path.
	Pending(ctx context.Context) ([]PendingChange, error)
	// Diff returns the unified diff of the pending changes at or below paths (all if none),
	// each file against its merge base.
	Diff(ctx context.Context, paths ...string) (string, error)
	// ApplyPending writes the requested changes onto the base (three-way, per file).
	ApplyPending(ctx context.Context, req ReviewRequest) ([]Resolved, error)
	// DiscardPending drops the requested changes.
	DiscardPending(ctx context.Context, req ReviewRequest) ([]Resolved, error)
	// Rebase makes content the pending version of the file name, reviewed against what the
	// base holds now (its new merge base), if name's change is still at version; applying
	// it then writes content whatever the base gained since. It is how a person resolves a
	// conflict by taking the agent's version or an edit of their own.
	Rebase(ctx context.Context, name, version string, content []byte) error
}
