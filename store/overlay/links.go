package overlay

import (
	"context"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

// Readlink returns the target of the symbolic link name as the overlay shows it. The
// overlay makes no links of its own (its pending changes are file contents): the links it
// shows are the base's, and the upper store's if one holds any.
func (o *Overlay) Readlink(ctx context.Context, name string) (string, error) {
	if err := valid("readlink", name); err != nil {
		return "", err
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	if o.upperHas(ctx, name) {
		if sl, ok := o.upper.Store.(store.Symlinker); ok {
			t, err := sl.Readlink(ctx, up(name))
			return t, rename(err, name)
		}
		return "", pathErr("readlink", name, fs.ErrInvalid)
	}
	if o.hidden(name) {
		return "", pathErr("readlink", name, fs.ErrNotExist)
	}
	sl, ok := o.base.(store.Symlinker)
	if !ok {
		return "", pathErr("readlink", name, fs.ErrInvalid)
	}
	return sl.Readlink(ctx, name)
}
