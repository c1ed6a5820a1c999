package llmfs

import "context"

// Mode is a work mode: what a workspace lets an agent do.
type Mode string

// The work modes, from least to most allowed.
const (
	ReadOnly  Mode = "read-only"  // list, read, find, grep
	ReadWrite Mode = "read-write" // and write, edit, mkdir, move, copy
	Full      Mode = "full"       // and delete
)

// Op names an operation for the policy.
type Op string

// The operations.
const (
	OpRead   Op = "read"
	OpList   Op = "list"
	OpFind   Op = "find"
	OpGrep   Op = "grep"
	OpWrite  Op = "write"
	OpEdit   Op = "edit"
	OpMkdir  Op = "mkdir"
	OpMove   Op = "move"
	OpCopy   Op = "copy"
	OpDelete Op = "delete"
)

const (
	opRead   = OpRead
	opList   = OpList
	opWrite  = OpWrite
	opEdit   = OpEdit
	opMkdir  = OpMkdir
	opMove   = OpMove
	opCopy   = OpCopy
	opDelete = OpDelete
)

// Allows reports whether mode m permits op. The empty mode is [Full].
func (m Mode) Allows(op Op) bool {
	switch op {
	case OpRead, OpList, OpFind, OpGrep:
		return true
	case OpDelete:
		return m == Full || m == ""
	}
	return m != ReadOnly
}

// Valid reports whether m is one of the defined modes or empty.
func (m Mode) Valid() bool {
	switch m {
	case "", ReadOnly, ReadWrite, Full:
		return true
	}
	return false
}

// check enforces the workspace's policy for op on r.
func (w *Workspace) check(ctx context.Context, op Op, r resolved) error {
	if !w.mode.Allows(op) {
		hint := "use read, list, find or grep"
		if w.mode == ReadWrite {
			hint = "deleting needs the full mode"
		}
		return errorf(CodePermissionDenied, r.arg, "the workspace is %s; %s is not allowed (%s): %s", w.mode, op, hint, r.arg)
	}
	return nil
}
