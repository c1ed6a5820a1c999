package llmfs

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store"
)

// ChangeChmod is the journal's operation for a change of a file's permission bits.
const ChangeChmod = "chmod"

// Attrs are what [Workspace.SetAttr] changes; a field left zero is left as it is.
type Attrs struct {
	// SetPerm says to set the permission bits to Perm&0o777 (the execute bits of a
	// script or a binary built in a mount).
	SetPerm bool
	Perm    fs.FileMode
	// ModTime, when not zero, is the new modification time (touch -d, make, utimensat).
	ModTime time.Time
}

// SetAttr sets the permission bits and the modification time of the file or directory p
// (following a symbolic link inside the workspace) and returns p's absolute path. It is
// refused like a write. A change of the bits is journaled as its own entry (op "chmod",
// the content unchanged); a time is not, as builds set thousands. A store that keeps no
// attributes refuses it with [CodePermissionDenied].
func (w *Workspace) SetAttr(ctx context.Context, p string, a Attrs) (string, error) {
	if a.SetPerm && w.journal() != nil {
		return journaled(ctx, w, ChangeChmod, func(w *Workspace) (string, error) { return w.SetAttr(ctx, p, a) })
	}
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	if err := w.check(ctx, OpWrite, r); err != nil {
		return "", err
	}
	as, ok := w.store.(store.AttrSetter)
	if !ok {
		return "", unsupported(p, "file modes or times")
	}
	if a.SetPerm {
		err = as.Chmod(ctx, r.name, a.Perm&fs.ModePerm)
	}
	if err == nil && !a.ModTime.IsZero() {
		err = as.Chtimes(ctx, r.name, a.ModTime)
	}
	if errors.Is(err, errors.ErrUnsupported) {
		return "", unsupported(p, "file modes or times")
	}
	if err != nil {
		return "", storeError(p, err)
	}
	return w.display(r.name), nil
}
