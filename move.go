package llmfs

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store"
)

// MoveResult is what [Workspace.Move] and [Workspace.Copy] return.
type MoveResult struct {
	Source      string `json:"source"`      // absolute path of the source
	Destination string `json:"destination"` // absolute path of the destination
}

// Move moves or renames the regular file src to dst, creating dst's missing parents. It
// fails with [CodeFileAlreadyExists] if dst exists, and never replaces it. When the store
// cannot rename across devices, Move copies then deletes the source; if that delete fails
// it removes the copy again, so no stray file is left behind.
func (w *Workspace) Move(ctx context.Context, src, dst string) (*MoveResult, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeMove, func(w *Workspace) (*MoveResult, error) { return w.Move(ctx, src, dst) })
	}
	rs, rd, err := w.twoFiles(ctx, OpMove, src, dst)
	if err != nil {
		return nil, err
	}
	done, err := w.admitMove(ctx, rs, rd)
	if err != nil {
		return nil, err
	}
	var made []string
	if err = w.mkdirAll(ctx, parentName(rd.name), &made); err == nil {
		err = w.store.Rename(ctx, rs.name, rd.name)
		if errors.Is(err, store.ErrCrossDevice) {
			err = w.copyThenDelete(ctx, rs, rd)
		}
	}
	if err != nil {
		w.removeMade(ctx, made)
	}
	done(err)
	if err != nil {
		return nil, storeError(pathOf(err, src, dst), err)
	}
	res := &MoveResult{Source: w.display(rs.name), Destination: w.display(rd.name)}
	if w.tracker != nil {
		if h, ok := w.tracker.lookup(rs.name); ok && w.movedSame(ctx, rd.name, &h) {
			w.tracker.record(rd.name, h)
		}
		w.tracker.forget(rs.name)
	}
	return res, nil
}

// admitMove checks a move from rs to rd against the quota; see [Workspace.admitFile] for
// done. Within the root a move adds only the parents it makes; in a relaxed workspace, a
// file moved in from outside the root is admitted as a copy would be, and one moved out
// is booked as removed.
func (w *Workspace) admitMove(ctx context.Context, rs, rd resolved) (done func(err error), err error) {
	srcIn, dstIn := w.counted(rs.name), w.counted(rd.name)
	if w.quota == nil || srcIn == dstIn {
		return w.admitDirs(ctx, rd.arg, parentName(rd.name))
	}
	var size int64
	if fi, err := w.store.Stat(ctx, rs.name); err == nil {
		size = fi.Size()
	}
	if dstIn {
		return w.admitFile(ctx, rd, func(int64) int64 { return size })
	}
	removed := w.removing(rs.name)
	return func(err error) { removed(size, err) }, nil
}

func (w *Workspace) copyThenDelete(ctx context.Context, rs, rd resolved) error {
	if err := store.Copy(ctx, w.store, rs.name, rd.name); err != nil {
		return err
	}
	if err := w.store.Remove(ctx, rs.name); err != nil {
		if rerr := w.store.Remove(ctx, rd.name); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	return nil
}

// Copy copies the regular file src to dst, creating dst's missing parents. It fails with
// [CodeFileAlreadyExists] if dst exists. The copy appears whole or not at all.
func (w *Workspace) Copy(ctx context.Context, src, dst string) (*MoveResult, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeCopy, func(w *Workspace) (*MoveResult, error) { return w.Copy(ctx, src, dst) })
	}
	rs, rd, err := w.twoFiles(ctx, OpCopy, src, dst)
	if err != nil {
		return nil, err
	}
	var size int64
	if fi, err := w.store.Stat(ctx, rs.name); err == nil {
		size = fi.Size()
	}
	done, err := w.admitFile(ctx, rd, func(int64) int64 { return size })
	if err != nil {
		return nil, err
	}
	var made []string
	if err = w.mkdirAll(ctx, parentName(rd.name), &made); err == nil {
		err = store.Copy(ctx, w.store, rs.name, rd.name)
	}
	if err != nil {
		w.removeMade(ctx, made)
	}
	done(err)
	if err != nil {
		return nil, storeError(pathOf(err, src, dst), err)
	}
	return &MoveResult{Source: w.display(rs.name), Destination: w.display(rd.name)}, nil
}

// twoFiles resolves and checks the paths of a move or a copy: src must be a regular file,
// and dst must not exist. The caller creates dst's parents, once the quota admits them.
func (w *Workspace) twoFiles(ctx context.Context, op Op, src, dst string) (rs, rd resolved, err error) {
	if rs, err = w.resolve(src); err != nil {
		return
	}
	if rd, err = w.resolve(dst); err != nil {
		return
	}
	if err = w.check(ctx, op, rs); err != nil {
		return
	}
	if err = w.check(ctx, op, rd); err != nil {
		return
	}
	if err = w.slashDir(ctx, rs, false); err != nil {
		return
	}
	if err = w.slashDir(ctx, rd, true); err != nil {
		return
	}
	fi, serr := w.store.Stat(ctx, rs.name)
	switch {
	case serr != nil:
		err = storeError(src, serr)
		return
	case fi.IsDir():
		err = errorf(CodeInvalidPath, src, "is a directory; only files can be moved or copied: %s", src)
		return
	case !fi.Mode().IsRegular():
		err = errorf(CodeInvalidPath, src, "not a regular file: %s", src)
		return
	}
	if rd.name == "." {
		err = errorf(CodeFileAlreadyExists, dst, "destination already exists: %s", dst)
		return
	}
	if _, serr := store.Lstat(ctx, w.store, rd.name); serr == nil {
		err = errorf(CodeFileAlreadyExists, dst, "destination already exists: %s", dst)
		return
	} else if !errors.Is(serr, fs.ErrNotExist) {
		err = storeError(dst, serr)
	}
	return
}

// pathOf picks which of two caller paths an error is about: dst for an existing
// destination, src otherwise.
func pathOf(err error, src, dst string) string {
	if errors.Is(err, fs.ErrExist) {
		return dst
	}
	return src
}

// movedSame reports whether the file at name, just moved there, is still the one h knows,
// updating h's identity for the move: a rename keeps the inode and modification time but
// moves the change time. A file known by its hash needs no check.
func (w *Workspace) movedSame(ctx context.Context, name string, h *seen) bool {
	if !h.byID {
		return true
	}
	fi, err := w.store.Stat(ctx, name)
	if err != nil {
		return false
	}
	id, _ := identityOf(fi, time.Now())
	if id.size != h.id.size || id.mtime != h.id.mtime || id.ino != h.id.ino {
		return false
	}
	h.id = id
	return true
}
