package llmfs

import (
	"context"
	"io"
)

// ReadFile returns the bytes of the file at p, text or binary, under the same rules as
// [Workspace.Read] (path rules, deny rules, the mode's read permission) but whole and
// unconverted. A file over max bytes fails with [CodeFileTooLarge] before it is read.
// It does not count as a read for read-before-edit: it serves clients (such as an MCP
// client reading a resource), not the model's edits.
func (w *Workspace) ReadFile(ctx context.Context, p string, max int64) ([]byte, error) {
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpRead, r); err != nil {
		return nil, err
	}
	if err := w.slashDir(ctx, r, false); err != nil {
		return nil, err
	}
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return nil, storeError(p, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		return nil, errorf(CodeFileTooLarge, p, "file is %d bytes, over the %d-byte limit: %s", fi.Size(), max, p)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, storeError(p, err)
	}
	if int64(len(b)) > max {
		return nil, errorf(CodeFileTooLarge, p, "file is over the %d-byte limit: %s", max, p)
	}
	return b, nil
}
