package llmfs

import (
	"context"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// RealPath returns the path p leads to once its symbolic links are followed, as w shows
// paths (a virtual path in a virtual view), after the path rules. When p's last element
// does not exist, its parent is followed and the last element kept, so the answer also
// covers a file about to be created. A link that leads out of the workspace is
// [CodeInvalidPath]. A face that confines a tool to one directory of the workspace (the
// anthropic memory tool and /memories) checks the answer, so that a link inside the
// directory cannot lead to the rest of the workspace.
func (w *Workspace) RealPath(ctx context.Context, p string) (string, error) {
	if w.bad != nil {
		return "", w.bad
	}
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	real, err := store.RealName(ctx, w.store, r.name)
	if err != nil {
		return "", storeError(p, err)
	}
	if w.base != "." && real != w.base && !strings.HasPrefix(real, w.base+"/") {
		// The store is rooted above the workspace: inside the store, outside the root.
		return "", errorf(CodeInvalidPath, p, "path resolves outside the workspace root: %s", p)
	}
	return w.display(real), nil
}
