//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/llmfs/llmfs/store"
)

var _ store.Snapshotter = (*Store)(nil)

// Snapshot implements [store.Snapshotter]: what [store.Snapshot]'s fallback does (the
// journal snapshots a file before each change to it), in fewer system calls: the lstat it
// starts with is the only stat before the open, and a small file is read in one read.
func (s *Store) Snapshot(ctx context.Context, name string, max int64) (store.Version, []byte, error) {
	if v, data, ok, err := s.quickSnapshot(name, max); ok {
		return v, data, err
	}
	return s.openSnapshot(ctx, name, max)
}

// openSnapshot is Snapshot through the store's own Lstat and Open: the general path.
func (s *Store) openSnapshot(ctx context.Context, name string, max int64) (store.Version, []byte, error) {
	fi, err := s.Lstat(ctx, name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir):
		return store.Version{Kind: store.Absent}, nil, nil
	case err != nil:
		return store.Version{}, nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := s.Readlink(ctx, name)
		if err != nil {
			return store.Version{}, nil, err
		}
		v, data := store.LinkVersion(target)
		return v, data, nil
	case fi.IsDir():
		return store.Version{Kind: store.Dir}, nil, nil
	}
	if err := checkRegular(fi); err != nil {
		return store.Version{}, nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var f *os.File
	err = s.do("open", name, func(n string) (err error) {
		// O_NONBLOCK: a FIFO swapped in after the lstat must not block the open.
		f, err = s.fs().OpenFile(n, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		return err
	})
	if err != nil {
		return store.Version{}, nil, err
	}
	defer f.Close()
	now, err := f.Stat()
	if err != nil {
		return store.Version{}, nil, err
	}
	if !os.SameFile(fi, now) {
		// Replaced since the lstat: the caller looks again.
		return store.Version{}, nil, &fs.PathError{Op: "snapshot", Path: name, Err: store.ErrChanged}
	}
	size := now.Size()
	if size > max {
		h, err := store.HashReader(f)
		if err != nil {
			return store.Version{}, nil, err
		}
		return store.Version{Kind: store.File, Hash: h, Size: size}, nil, nil
	}
	// One byte more than the size, so that a file that grew since the stat reads on.
	data := make([]byte, 0, size+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) || err == nil && n > 0 && len(data) < cap(data) {
			// A short read of a regular file is its end.
			break
		}
		if err != nil {
			return store.Version{}, nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
	if int64(len(data)) > max {
		return store.Version{Kind: store.File, Hash: store.Hash(data), Size: int64(len(data))}, nil, nil
	}
	return store.FileVersion(data), data, nil
}
