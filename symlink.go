package llmfs

import (
	"context"
	"errors"
	"path"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// ChangeSymlink is the journal's operation for a symbolic link made ([Workspace.Symlink]).
const ChangeSymlink = "symlink"

// Symlink makes the symbolic link p pointing at target and returns p's absolute path. The
// target is stored as written and may dangle; nothing ever follows a link outside the
// workspace (reads through one are refused). It is refused like a write: in a read-only
// workspace, for a denied p, for a target that names a denied path, and for a p that
// exists. A store that keeps no links refuses it with [CodePermissionDenied].
func (w *Workspace) Symlink(ctx context.Context, target, p string) (string, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeSymlink, func(w *Workspace) (string, error) { return w.Symlink(ctx, target, p) })
	}
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	if err := w.check(ctx, OpWrite, r); err != nil {
		return "", err
	}
	if target == "" || strings.IndexByte(target, 0) >= 0 {
		return "", errorf(CodeInvalidArgument, p, "a symbolic link needs a target without NUL bytes: %s", p)
	}
	if r.name == "." {
		return "", errorf(CodeFileAlreadyExists, p, "the workspace root exists: %s", p)
	}
	if err := w.checkLinkTarget(ctx, r, target); err != nil {
		return "", err
	}
	sl, ok := w.store.(store.Symlinker)
	if !ok {
		return "", unsupported(p, "symbolic links")
	}
	if err := sl.Symlink(ctx, target, r.name); err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			return "", unsupported(p, "symbolic links")
		}
		return "", storeError(p, err)
	}
	return w.display(r.name), nil
}

// checkLinkTarget refuses a link whose target names a denied path: the link would be a
// second name for it. A target outside the workspace is allowed, as nothing follows it.
func (w *Workspace) checkLinkTarget(ctx context.Context, r resolved, target string) error {
	var name string
	if path.IsAbs(target) {
		t, err := w.resolve(target)
		if err != nil {
			return nil // outside the workspace: never followed
		}
		name = t.name
	} else {
		var err error
		if name, err = store.LinkTarget(r.name, target); err != nil {
			return nil // climbs out of the store: never followed
		}
	}
	if w.reservedPath(ctx, name) {
		return reservedError(target)
	}
	if rule, ok := w.denied(ctx, name); ok {
		return &Error{Code: CodePermissionDenied, Path: r.arg,
			Msg: "access denied: the link's target " + target + " is protected by the workspace's deny rule " + `"` + rule + `"` + "; a link cannot name it"}
	}
	return nil
}

// unsupported is the refusal of what the workspace's store cannot keep.
func unsupported(p, what string) *Error {
	return &Error{Code: CodePermissionDenied, Path: p, Err: errors.ErrUnsupported,
		Msg: "this workspace's store keeps no " + what + ": " + p}
}
