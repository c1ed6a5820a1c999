package llmfs

import "context"

// Paths are a workspace's path rules, as [Workspace.Paths] returns them: how the paths a
// caller gives map to the workspace, and which of them the deny rules hide. They look at
// the store only where a method takes a context.
type Paths struct {
	w *Workspace
}

// Paths returns w's path rules.
func (w *Workspace) Paths() Paths { return Paths{w: w} }

// Within reports whether the absolute path p, once cleaned, is the workspace root or below
// it, spelled through the root's canonical path or the path it was opened by. It does not
// look at the store, so symbolic links below the root are not followed.
func (ps Paths) Within(p string) bool { return ps.w.isWithin(p) }

// Rel returns abs relative to the workspace root, or abs itself when it lies outside.
// In a virtual view abs is a virtual path. A path already relative is returned cleaned.
func (ps Paths) Rel(abs string) string { return ps.w.rel(abs) }

// Abs returns the absolute path p stands for in the workspace (a virtual path in a virtual
// view), or an [CodeInvalidPath] error if p breaks the path rules. It does not look at the
// store.
func (ps Paths) Abs(p string) (string, error) { return ps.w.abs(p) }

// Denied reports whether the path p, relative to the workspace root (or absolute), falls
// under a deny rule. It looks at the path alone and follows no symbolic link: a walker
// (find, grep) calls it for each path it meets, and uses [Paths.DeniedPath] for the
// symbolic links it follows. The root itself is never denied.
func (ps Paths) Denied(p string) bool { return ps.w.isDenied(p) }

// DeniedPath reports whether p, resolved by the workspace's path rules, is denied either
// itself or through the real path its symbolic links lead to. A path the rules refuse
// (for example one outside the root) is not "denied": operations on it fail otherwise.
func (ps Paths) DeniedPath(ctx context.Context, p string) bool { return ps.w.deniedPath(ctx, p) }

// StoreName returns the name in the workspace's store of the path p, after the path rules
// of the workspace (not its policy). System code that writes below the agent's policy,
// such as package sysfiles, uses it with [Workspace.Store].
func (ps Paths) StoreName(p string) (string, error) { return ps.w.storeName(p) }

// Real returns the path p leads to once its symbolic links are followed, as the workspace
// shows paths (a virtual path in a virtual view), after the path rules. When p's last
// element does not exist, its parent is followed and the last element kept, so the answer
// also covers a file about to be created. A link that leads out of the workspace is
// [CodeInvalidPath]. A face that confines a tool to one directory of the workspace (the
// anthropic memory tool and /memories) checks the answer, so that a link inside the
// directory cannot lead to the rest of the workspace.
func (ps Paths) Real(ctx context.Context, p string) (string, error) { return ps.w.realPath(ctx, p) }
