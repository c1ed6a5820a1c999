package llmfs

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// WriteMode says what a write does to an existing file.
type WriteMode string

// The write modes.
const (
	Overwrite WriteMode = "overwrite" // replace the file's content (the default)
	AppendTo  WriteMode = "append"    // add to the end of the file
	Create    WriteMode = "create"    // fail with [CodeFileAlreadyExists] if the file exists
)

// WriteOptions control [Workspace.Write].
type WriteOptions struct {
	// Mode is the write mode; empty means [Overwrite].
	Mode WriteMode
}

// WriteResult is what [Workspace.Write] returns.
type WriteResult struct {
	Path    string // absolute path of the file
	Bytes   int64  // bytes written
	Created bool   // the file did not exist before
}

// Write writes content to the file at p, creating missing parent directories. An overwrite
// or a create is atomic: readers see the old content or the new, never a mix. When the
// workspace requires reads, overwriting an existing file needs a read of it first.
func (w *Workspace) Write(ctx context.Context, p, content string, opts WriteOptions) (*WriteResult, error) {
	var mode store.WriteMode
	switch opts.Mode {
	case "", Overwrite:
		mode = store.Replace
	case AppendTo:
		mode = store.Append
	case Create:
		mode = store.Exclusive
	default:
		return nil, errorf(CodeInvalidArgument, p, "mode must be overwrite, append or create, got %q", opts.Mode)
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, opWrite, r); err != nil {
		return nil, err
	}
	if r.name == "." {
		return nil, errorf(CodeInvalidPath, p, "is a directory: %s", p)
	}
	if err := w.mkdirAll(ctx, parentName(r.name)); err != nil {
		return nil, storeError(p, err)
	}
	fi, err := w.store.Stat(ctx, r.name)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, storeError(p, err)
	case exists && fi.IsDir():
		return nil, errorf(CodeInvalidPath, p, "is a directory: %s", p)
	case exists && mode == store.Exclusive:
		return nil, errorf(CodeFileAlreadyExists, p, "file already exists (write mode create): %s", p)
	}
	abs := w.display(r.name)
	wopts := store.WriteOptions{Mode: mode}
	if w.tracker != nil && mode == store.Replace {
		if exists {
			h, err := w.readFirst(abs, p)
			if err != nil {
				return nil, err
			}
			wopts.IfMatch = h
		} else {
			wopts.IfAbsent = true
		}
	}
	n, err := w.store.WriteFile(ctx, r.name, strings.NewReader(content), wopts)
	if err != nil {
		return nil, storeError(p, err)
	}
	if w.tracker != nil {
		switch mode {
		case store.Append:
			w.rehash(ctx, r.name, abs)
		default:
			w.tracker.record(abs, store.Hash([]byte(content)))
		}
	}
	return &WriteResult{Path: abs, Bytes: n, Created: !exists}, nil
}

// readFirst returns the hash this session read abs at, or FILE_NOT_READ.
func (w *Workspace) readFirst(abs, p string) (string, error) {
	h, ok := w.tracker.lookup(abs)
	if !ok {
		return "", errorf(CodeFileNotRead, p, "the file exists and has not been read in this session; read it first, then write or edit: %s", p)
	}
	return h, nil
}

// rehash records the current content of a tracked file after a change this session made
// without knowing the whole result (an append).
func (w *Workspace) rehash(ctx context.Context, name, abs string) {
	if _, ok := w.tracker.lookup(abs); !ok {
		return
	}
	f, err := w.store.Open(ctx, name)
	if err != nil {
		w.tracker.forget(abs)
		return
	}
	defer f.Close()
	if h, err := store.HashReader(f); err == nil {
		w.tracker.record(abs, h)
	} else {
		w.tracker.forget(abs)
	}
}

// mkdirAll creates the directory name and any missing parents.
func (w *Workspace) mkdirAll(ctx context.Context, name string) error {
	if name == "." {
		return nil
	}
	fi, err := w.store.Stat(ctx, name)
	if err == nil {
		if !fi.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: name, Err: store.ErrNotDir}
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := w.mkdirAll(ctx, parentName(name)); err != nil {
		return err
	}
	err = w.store.Mkdir(ctx, name)
	if errors.Is(err, fs.ErrExist) {
		// Someone made it first, or something else is there (a file, a dangling link):
		// only a directory will do.
		if fi, serr := w.store.Stat(ctx, name); serr == nil && fi.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: name, Err: store.ErrNotDir}
	}
	return err
}

func parentName(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return "."
	}
	return name[:i]
}
