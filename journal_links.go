package llmfs

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store"
)

// The recorder's links and attributes: a link made is recorded as the path going from
// absent to a link, so undo removes it; a hard link as a new file with its content; a
// chmod as a change of the file to itself (the history shows it; undo leaves the bits).

var (
	_ store.Symlinker  = (*recorder)(nil)
	_ store.HardLinker = (*recorder)(nil)
	_ store.AttrSetter = (*recorder)(nil)
)

func noCapability(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: errors.ErrUnsupported}
}

func (r *recorder) Symlink(ctx context.Context, target, name string) error {
	sl, ok := r.tx.(store.Symlinker)
	if !ok {
		return noCapability("symlink", name)
	}
	return r.do(ctx, func() (plan, error) {
		before, _, err := store.Snapshot(ctx, r.tx, name, 0)
		if err != nil {
			return plan{}, err
		}
		after, data := store.LinkVersion(target)
		return plan{[]*store.Change{{Op: r.op, Path: name, Before: before, After: after}}, [][]byte{data}}, nil
	}, func() error { return sl.Symlink(ctx, target, name) })
}

func (r *recorder) Readlink(ctx context.Context, name string) (string, error) {
	sl, ok := r.tx.(store.Symlinker)
	if !ok {
		return "", noCapability("readlink", name)
	}
	return sl.Readlink(ctx, name)
}

func (r *recorder) Link(ctx context.Context, oldname, newname string) error {
	hl, ok := r.tx.(store.HardLinker)
	if !ok {
		return noCapability("link", newname)
	}
	return r.do(ctx, func() (plan, error) {
		before, _, err := store.Snapshot(ctx, r.tx, newname, 0)
		if err != nil {
			return plan{}, err
		}
		after, data, err := store.Snapshot(ctx, r.tx, oldname, r.max)
		if err != nil {
			return plan{}, err
		}
		return plan{[]*store.Change{{Op: r.op, Path: newname, Before: before, After: after}}, [][]byte{data}}, nil
	}, func() error { return hl.Link(ctx, oldname, newname) })
}

func (r *recorder) Chmod(ctx context.Context, name string, perm fs.FileMode) error {
	as, ok := r.tx.(store.AttrSetter)
	if !ok {
		return noCapability("chmod", name)
	}
	return r.do(ctx, func() (plan, error) {
		v, data, err := store.Snapshot(ctx, r.tx, name, r.max)
		if err != nil {
			return plan{}, err
		}
		return plan{[]*store.Change{{Op: r.op, Path: name, Before: v, After: v}}, [][]byte{data}}, nil
	}, func() error { return as.Chmod(ctx, name, perm) })
}

func (r *recorder) Chtimes(ctx context.Context, name string, mtime time.Time) error {
	as, ok := r.tx.(store.AttrSetter)
	if !ok {
		return noCapability("chtimes", name)
	}
	return as.Chtimes(ctx, name, mtime)
}
