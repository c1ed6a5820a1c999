package llmfs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"time"

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
	// IfMatch, when not empty, makes an overwrite conditional on the file's current
	// content: it happens only if the file exists and its content hashes
	// ([store.Hash]) to IfMatch, checked by the store as it writes, so that a write by
	// anyone in between (another process included) is not lost; otherwise the write
	// fails with FILE_CHANGED (FILE_NOT_FOUND for a missing file) and nothing changes.
	IfMatch string
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
	return w.writeStream(ctx, p, contentOf(content), opts)
}

// writeStream is Write and WriteFrom: the content comes from src.
func (w *Workspace) writeStream(ctx context.Context, p string, src source, opts WriteOptions) (*WriteResult, error) {
	if w.journal() != nil {
		return journaled(ctx, w, writeChange(opts.Mode), func(w *Workspace) (*WriteResult, error) { return w.writeStream(ctx, p, src, opts) })
	}
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
	if opts.IfMatch != "" && mode != store.Replace {
		return nil, errorf(CodeInvalidArgument, p, "IfMatch goes with an overwrite, not with mode %q", opts.Mode)
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpWrite, r); err != nil {
		return nil, err
	}
	if err := w.slashDir(ctx, r, true); err != nil {
		return nil, err
	}
	if r.name == "." {
		return nil, errorf(CodeInvalidPath, p, "is a directory: %s", p)
	}
	if w.quota != nil {
		// The quota's refusal must not hide these (write checks again after the
		// parents exist; a workspace without a quota saves the extra look).
		if fi, err := w.store.Stat(ctx, r.name); err == nil {
			if err := refuseExisting(p, fi, mode); err != nil {
				return nil, err
			}
		}
	}
	done, err := w.admitFile(ctx, r, func(old int64) int64 {
		if mode == store.Append {
			return old + src.size
		}
		return src.size
	})
	if err != nil {
		return nil, err
	}
	res, err := w.write(ctx, r, src, mode, opts.IfMatch)
	done(err)
	return res, err
}

// write is Write after the checks.
func (w *Workspace) write(ctx context.Context, r resolved, src source, mode store.WriteMode, ifMatch string) (_ *WriteResult, err error) {
	p := r.arg
	// A write that fails leaves nothing behind, not even the parents it made: the store
	// may refuse the file itself (its own quota, a conditional write that lost).
	var made []string
	defer func() {
		if err != nil {
			w.removeMade(ctx, made)
		}
	}()
	if err := w.mkdirAll(ctx, parentName(r.name), &made); err != nil {
		return nil, storeError(p, err)
	}
	fi, err := w.store.Stat(ctx, r.name)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, storeError(p, err)
	}
	if exists {
		if err := refuseExisting(p, fi, mode); err != nil {
			return nil, err
		}
	}
	abs := w.display(r.name)
	wopts := store.WriteOptions{Mode: mode}
	if w.tracker != nil && mode == store.Replace {
		if exists {
			h, err := w.readFirst(r.name, p)
			if err != nil {
				return nil, err
			}
			if h.sha == "" {
				// Read without the store's hash (a big file): get it now, and check
				// that it is still the content the session read.
				if h, err = w.currentSeen(ctx, r, h); err != nil {
					return nil, err
				}
			}
			wopts.IfMatch = h.sha
		} else {
			wopts.IfAbsent = true
		}
	}
	if ifMatch != "" {
		if !exists {
			return nil, errorf(CodeFileNotFound, p, "no such file: %s (the write was to replace the content whose hash it gave)", p)
		}
		if wopts.IfMatch != "" && wopts.IfMatch != ifMatch {
			return nil, changedError(p, store.ErrChanged)
		}
		wopts.IfMatch = ifMatch
	}
	n, err := w.store.WriteFile(ctx, r.name, src.reader(), wopts)
	if errors.Is(err, store.ErrChanged) && ifMatch != "" {
		return nil, &Error{Code: CodeFileChanged, Path: p, Err: err,
			Msg: p + " has changed: its content no longer has the hash the write was to replace (" + ifMatch + "); nothing was written. Read it again, then retry."}
	}
	if errors.Is(err, store.ErrChanged) {
		return nil, changedError(p, err)
	}
	if err != nil {
		return nil, storeError(p, err)
	}
	if w.tracker != nil {
		switch mode {
		case store.Append:
			w.rehash(ctx, r.name, src, !exists)
		default:
			if s, err := hashStream(src.reader()); err == nil {
				w.tracker.record(r.name, s)
			}
		}
	}
	return &WriteResult{Path: abs, Bytes: n, Created: !exists}, nil
}

// refuseExisting returns the error of a write in mode to p where fi already exists, if
// any: a directory cannot be written, and create mode wants no file there.
func refuseExisting(p string, fi fs.FileInfo, mode store.WriteMode) error {
	switch {
	case fi.IsDir():
		return errorf(CodeInvalidPath, p, "is a directory: %s", p)
	case mode == store.Exclusive:
		return errorf(CodeFileAlreadyExists, p, "%s already exists and the write mode is create; choose another path, or overwrite it (mode overwrite)", p)
	}
	return nil
}

// readFirst returns what this session knows of the file name, or FILE_NOT_READ.
func (w *Workspace) readFirst(name, p string) (seen, error) {
	h, ok := w.tracker.lookup(name)
	if !ok {
		return seen{}, errorf(CodeFileNotRead, p, "%s exists but has not been read in this session. Read it first (a read of any part of it counts), then retry.", p)
	}
	return h, nil
}

// currentSeen hashes the file r now holds and returns it, or FILE_CHANGED if it is not the
// one the session saw: by its fast hash, or by its identity if that is what the session
// recorded (checked before hashing; the conditional write with the hash covers the rest).
func (w *Workspace) currentSeen(ctx context.Context, r resolved, want seen) (seen, error) {
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return seen{}, storeError(r.arg, err)
	}
	defer f.Close()
	sameFile := func() error {
		fi, err := f.Stat()
		if err != nil {
			return storeError(r.arg, err)
		}
		if id, _ := identityOf(fi, time.Now()); id != want.id {
			return changedError(r.arg, nil)
		}
		return nil
	}
	if want.byID {
		if err := sameFile(); err != nil {
			return seen{}, err
		}
	}
	got, err := hashStream(f)
	if err != nil {
		return seen{}, storeError(r.arg, err)
	}
	switch {
	case !want.byID && got.fast != want.fast:
		return seen{}, changedError(r.arg, nil)
	case want.byID:
		// A write in place while the hash ran would make got the hash of content the
		// session never saw, and the conditional write would then take it as read: the
		// identity must still be the one read once the hash is done (any write moves it).
		if err := sameFile(); err != nil {
			return seen{}, err
		}
	}
	return got, nil
}

// changedError is the FILE_CHANGED failure of an edit or overwrite of p.
func changedError(p string, err error) error {
	return &Error{Code: CodeFileChanged, Path: p, Err: err,
		Msg: p + " has changed since this session last read it (someone else wrote it). Read it again, then retry with the current content."}
}

// rehash updates what the session knows of a file after it appended appended to it: a
// tracked file, or one the append created (known to have been empty). Only a file that
// holds what the session knew followed by what it appended is recorded anew; otherwise
// someone else wrote it since the session last looked, and the old knowledge stays, so
// that the next edit or overwrite fails with [CodeFileChanged] (or [CodeFileNotRead])
// rather than clobber a change the session never saw.
func (w *Workspace) rehash(ctx context.Context, name string, appended source, created bool) {
	known, ok := w.tracker.lookup(name)
	switch {
	case created:
		known = seenOf(nil)
	case !ok || known.byID:
		// Unknown, or known only by an identity that the append has changed: the session
		// cannot tell that the rest is what it read, so it reads again before overwriting.
		return
	}
	f, err := w.store.Open(ctx, name)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() < appended.size {
		return
	}
	whole, before := newContentHasher(true), newContentHasher(false)
	r := io.TeeReader(f, whole)
	if _, err := io.CopyN(before, r, fi.Size()-appended.size); err != nil {
		return
	}
	if before.sum().fast != known.fast || !sameContent(r, appended.reader()) {
		return
	}
	w.tracker.record(name, whole.sum())
}

// mkdirAll creates the directory name and any missing parents, appending those it made to
// *made, parents first. It costs a number of store calls logarithmic in the depth of name,
// not linear: on a host directory each call looks up every element of its name, so one
// call per parent made a write 2,000 directories deep cost 25 s of CPU.
func (w *Workspace) mkdirAll(ctx context.Context, name string, made *[]string) error {
	if name == "." {
		return nil
	}
	for attempt := 0; ; attempt++ {
		missing, err := w.dirsToMake(ctx, name)
		if err != nil || len(missing) == 0 {
			return err
		}
		n, err := store.MkdirChain(ctx, w.store, missing)
		*made = append(*made, missing[:n]...)
		if err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		// Someone made missing[n] first, or something else is there (a file, a dangling
		// link): only a directory will do. Look again and go on below it.
		if fi, serr := w.store.Stat(ctx, missing[n]); serr != nil || !fi.IsDir() || attempt == 10 {
			return &fs.PathError{Op: "mkdir", Path: missing[n], Err: store.ErrNotDir}
		}
	}
}

// dirsToMake returns the directories to make for name to exist, parents first: name and
// the parents below its deepest existing one, found by bisection (a missing directory has
// nothing below it). A file where a directory should be is [store.ErrNotDir].
func (w *Workspace) dirsToMake(ctx context.Context, name string) ([]string, error) {
	var chain []string // name's parents and name, shallowest first
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			chain = append(chain, name[:i])
		}
	}
	chain = append(chain, name)
	// Invariant: chain[:lo] exist (as far as known), chain[hi:] do not.
	lo, hi := 0, len(chain)
	var deepest fs.FileInfo // of chain[lo-1]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		fi, err := w.store.Stat(ctx, chain[mid])
		switch {
		case err == nil:
			lo, deepest = mid+1, fi
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir):
			hi = mid
		default:
			return nil, err
		}
	}
	if deepest != nil && !deepest.IsDir() {
		return nil, &fs.PathError{Op: "mkdir", Path: chain[lo-1], Err: store.ErrNotDir}
	}
	return chain[lo:], nil
}

// removeMade removes the directories an operation made before it failed, children first.
// It stops at one that is no longer empty: someone else has put something in it since.
func (w *Workspace) removeMade(ctx context.Context, made []string) {
	ctx = context.WithoutCancel(ctx)
	for i := len(made) - 1; i >= 0; i-- {
		if err := w.store.Remove(ctx, made[i]); err != nil {
			return
		}
	}
}

func parentName(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return "."
	}
	return name[:i]
}
