package llmfs

import (
	"context"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// realPath is [Paths.Real].
func (w *Workspace) realPath(ctx context.Context, p string) (string, error) {
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
