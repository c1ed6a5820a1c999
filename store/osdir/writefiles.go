//go:build !js && !wasip1

package osdir

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// Batched writes. WriteFile makes a file's new content durable before it renames it into
// place, one file at a time: an apply of 1,000 reviewed files paid 1,000 rounds of
// write, fsync and rename, each fsync waiting for a journal commit of the file system of
// its own. WriteFiles writes the new contents of a batch to unnamed temporary files and
// starts their write-back together, then syncs each (the first sync commits what the
// others need, and they return without waiting), then renames each into place. Every file
// is still old or new after a crash, as with WriteFile: a file's new content is synced
// before its rename, and an unnamed temporary file leaves nothing behind.

// maxBatchFiles bounds the files a batch holds open (two descriptors each: the file and
// its directory).
const maxBatchFiles = 128

// batchMu lets one batch at a time hold many path locks, so that two batches naming the
// same files in different orders cannot wait on each other. Single writes take one lock
// at a time and never wait while holding one.
var batchMu sync.Mutex

var _ store.FilesWriter = (*Store)(nil)

// WriteFiles implements [store.FilesWriter]. Replace writes are batched; the others are
// made by WriteFile, in their turn.
func (s *Store) WriteFiles(ctx context.Context, files []store.FileWrite) []error {
	batchMu.Lock()
	defer batchMu.Unlock()
	errs := make([]error, len(files))
	b := &writeBatch{s: s, held: map[string]bool{}, dirs: map[string]string{}, open: map[string]*os.File{}}
	for i, f := range files {
		if f.Opts.Mode != store.Replace || len(b.files) == maxBatchFiles {
			b.finish(errs)
		}
		if f.Opts.Mode != store.Replace {
			_, errs[i] = s.WriteFile(ctx, f.Name, bytes.NewReader(f.Data), f.Opts)
			continue
		}
		err := b.add(i, f)
		if errors.Is(err, errHeld) {
			b.finish(errs) // the batch writes this file already: that write first
			err = b.add(i, f)
		}
		errs[i] = err
	}
	b.finish(errs)
	return errs
}

// errHeld says that the batch holds the lock of a file it is asked to write again.
var errHeld = errors.New("written by the batch already")

// A writeBatch is the files of a WriteFiles written aside and not yet in place.
type writeBatch struct {
	s     *Store
	files []*batchFile
	held  map[string]bool     // the lock keys the batch holds
	dirs  map[string]string   // store directory (with its slash) -> resolved, "" if unresolvable
	open  map[string]*os.File // store directory (with its slash) -> its handle (Linux)
}

type batchFile struct {
	i      int    // index in the WriteFiles call
	name   string // as the caller named it
	t      *tempFile
	key    string
	unlock func()
}

// add checks the write of f as WriteFile does and writes its content aside, holding the
// file's lock until the batch finishes.
func (b *writeBatch) add(i int, f store.FileWrite) error {
	s := b.s
	if f.Name == "." {
		return &fs.PathError{Op: "write", Path: f.Name, Err: store.ErrIsDir}
	}
	return s.do("write", f.Name, func(target string) error {
		if fi, err := b.lstat(target); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			real, ok := s.resolve(target)
			if !ok {
				return &fs.PathError{Op: "write", Path: target, Err: store.ErrEscape}
			}
			target = real
		}
		key := b.lockKey(target)
		if b.held[key] {
			return errHeld
		}
		unlock := lockPath(key)
		t, err := b.prepare(target, f)
		if err != nil {
			unlock()
			return err
		}
		b.held[key] = true
		b.files = append(b.files, &batchFile{i: i, name: f.Name, t: t, key: key, unlock: unlock})
		return nil
	})
}

// prepare is WriteFile's Replace up to the sync: the checks, then the content written
// to a temporary file and its write-back started. Callers hold target's lock.
func (b *writeBatch) prepare(target string, f store.FileWrite) (*tempFile, error) {
	// Stat, as WriteFile asks, is Lstat here: target was resolved, and a link put there
	// since is not a regular file.
	cur, err := b.lstat(target)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if exists {
		if err := checkRegular(cur); err != nil {
			return nil, err
		}
	}
	if f.Opts.IfMatch != "" {
		if !exists {
			return nil, store.ErrChanged
		}
		h, err := b.hash(target)
		if err != nil {
			return nil, err
		}
		if h != f.Opts.IfMatch {
			return nil, store.ErrChanged
		}
	}
	if f.Opts.IfAbsent && exists {
		return nil, store.ErrChanged
	}
	t, err := b.newTemp(target)
	if err != nil {
		return nil, err
	}
	_, err = t.File.Write(f.Data)
	if err == nil && exists {
		// The umask shaped the temporary file's mode; give it the old file's exactly.
		err = t.File.Chmod(cur.Mode().Perm())
	}
	if err != nil {
		b.release(t)
		return nil, err
	}
	startWriteback(t.File)
	return t, nil
}

// finish syncs the files written aside, then puts each in place, and sets their errors.
func (b *writeBatch) finish(errs []error) {
	for _, f := range b.files {
		errs[f.i] = f.t.File.Sync()
	}
	for _, f := range b.files {
		if errs[f.i] == nil {
			errs[f.i] = f.t.commit(false)
		}
		b.release(f.t)
		f.unlock()
		errs[f.i] = fixErr("write", f.name, errs[f.i])
	}
	b.files = b.files[:0]
	clear(b.held)
	b.closeDirs()
}

// lockKey is [Store.lockKey] with each directory resolved once a batch: its files share
// their directories, and resolving one walks every element of its host path.
func (b *writeBatch) lockKey(name string) string {
	dir, base := path.Split(name)
	if dir == "" {
		return b.s.lockKey(name)
	}
	real, ok := b.dirs[dir]
	if !ok {
		if r, resolved := b.s.resolve(strings.TrimSuffix(dir, "/")); resolved {
			real = r
		}
		b.dirs[dir] = real
	}
	switch real {
	case "":
		return b.s.HostPath(name)
	case ".":
		return b.s.HostPath(base)
	}
	return b.s.HostPath(real + "/" + base)
}
