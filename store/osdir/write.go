//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/llmfs/llmfs/store"
)

// locks serializes writes to the same host file across every Store in the process, so that
// a conditional write's check and its rename are one step. An entry lives only while some
// writer holds or waits for it, so a long-running server does not accumulate one per path.
var locks = struct {
	sync.Mutex
	m map[string]*pathLock
}{m: map[string]*pathLock{}}

type pathLock struct {
	sync.Mutex
	users int // holders and waiters; guarded by locks.Mutex
}

// lockKey is the key under which writes to name are serialized: its host path with the
// directories on the way resolved, so that every name of one file (through a symbolic link
// to one of its directories, say) takes the same lock.
func (s *Store) lockKey(name string) string {
	if real, ok := s.resolveParent(name); ok {
		name = real
	}
	return s.HostPath(name)
}

func lockPath(p string) (unlock func()) {
	locks.Lock()
	l := locks.m[p]
	if l == nil {
		l = &pathLock{}
		locks.m[p] = l
	}
	l.users++
	locks.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		locks.Lock()
		if l.users--; l.users == 0 {
			delete(locks.m, p)
		}
		locks.Unlock()
	}
}

// WriteFile implements [store.Store]. Replace and Exclusive write a temporary file in the
// same directory, sync it and move it into place, so a crash leaves the old content or the
// new one; Append does the same with the old content followed by the new.
func (s *Store) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	return s.writeFile(ctx, name, r, opts, nil)
}

// writeFile is WriteFile; when stamp is not nil, a write that replaces name (not through a
// link) sets it to the stamp of the new file, if it can tell (see known.go).
func (s *Store) writeFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions, stamp *fileStamp) (int64, error) {
	if name == "." {
		return 0, &fs.PathError{Op: "write", Path: name, Err: store.ErrIsDir}
	}
	var n int64
	err := s.do("write", name, func(target string) error {
		if target != name {
			stamp = nil // a link on the way: the file known by name is not target
		}
		// Write through a symbolic link to its target, as a shell redirection would,
		// rather than replacing the link with a file.
		if fi, err := s.fs().Lstat(target); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			real, ok := s.resolve(target)
			if !ok {
				return &fs.PathError{Op: "write", Path: target, Err: store.ErrEscape}
			}
			target = real
			stamp = nil
		}
		defer lockPath(s.lockKey(target))()
		cur, err := s.fs().Stat(target)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if exists && opts.Mode == store.Exclusive {
			// Like open(O_CREAT|O_EXCL): whatever is there, file or directory, exists.
			return fs.ErrExist
		}
		if exists {
			if err := checkRegular(cur); err != nil {
				return err
			}
		}
		if opts.IfMatch != "" {
			if !exists {
				return store.ErrChanged
			}
			// The hash of what the journal's last write left, if the file is as it
			// left it (known.go); otherwise it is read.
			h, ok := s.knownHash(name, target, cur)
			if !ok {
				if h, err = s.hash(target); err != nil {
					return err
				}
			}
			if h != opts.IfMatch {
				return store.ErrChanged
			}
		}
		switch opts.Mode {
		case store.Append:
			n, err = s.appendTo(target, r)
			return err
		case store.Exclusive:
			if exists {
				return fs.ErrExist
			}
			n, err = s.replace(target, r, 0, true, stamp)
			return err
		case store.Replace:
			if opts.IfAbsent && exists {
				return store.ErrChanged
			}
			var keep fs.FileMode // the mode to keep; 0 for a new file
			if exists {
				keep = cur.Mode().Perm()
			}
			n, err = s.replace(target, r, keep, false, stamp)
			return err
		}
		return fs.ErrInvalid
	})
	return n, err
}

func (s *Store) hash(name string) (string, error) {
	f, err := s.fs().OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return store.HashReader(f)
}

// replace writes r to a new file and puts it in place of name (see [tempFile.commit]). A
// new file gets mode 0644 less the umask; keep, when not 0, is the mode of the file being
// replaced, given exactly.
//
// When stamp is not nil it gets the new file's stamp, taken once the file has its name;
// a named temporary file, closed before its rename, leaves it unset.
func (s *Store) replace(name string, r io.Reader, keep fs.FileMode, exclusive bool, stamp *fileStamp) (int64, error) {
	t, err := s.newTemp(name)
	if err != nil {
		return 0, err
	}
	defer t.discard()
	n, err := io.Copy(t.File, r)
	if err == nil && keep != 0 {
		// The umask shaped the temporary file's mode; give it the old file's exactly.
		err = t.File.Chmod(keep)
	}
	if err == nil {
		err = t.sync()
	}
	if err == nil {
		err = t.commit(exclusive)
	}
	if err != nil {
		return 0, err
	}
	if stamp != nil && t.dir != nil {
		*stamp = stampFile(t.File)
	}
	return n, nil
}

// A tempFile is the new content of a file, written aside and put in place by one rename
// or link once it is whole and synced, so that a crash leaves the old content or the new.
// On Linux it is unnamed (O_TMPFILE) until then; elsewhere, or on a file system without
// unnamed files, it has a name [IsTemp] knows.
type tempFile struct {
	*os.File
	s      *Store
	target string   // store name of the file it becomes
	name   string   // store name of a named temporary file; "" once committed or if unnamed
	dir    *os.File // the directory an unnamed one is linked into; nil for a named one
	base   string   // target's last element
}

// newNamedTemp creates a named temporary file next to target.
func (s *Store) newNamedTemp(target string) (*tempFile, error) {
	dir, base := path.Split(target)
	for i := 0; ; i++ {
		tmp := dir + tempName(base)
		f, err := s.fs().OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return &tempFile{File: f, s: s, target: target, name: tmp, base: base}, nil
		}
		if !errors.Is(err, fs.ErrExist) || i == 10 {
			return nil, err
		}
	}
}

// tempName is a fresh name for a temporary file for base: ".BASE.llmfs-SUFFIX".
func tempName(base string) string {
	// Padded to the fixed length IsTemp asks for, so that a user's ".env.llmfs-backup"
	// is never taken for one of these.
	suffix := randomSuffix()
	return "." + tmpPrefix(base) + tempMark + strings.Repeat("0", tempSuffixLen-len(suffix)) + suffix
}

// commit puts t in place of its target: by rename, or, when exclusive, by a hard link
// that fails if the target exists.
func (t *tempFile) commit(exclusive bool) error {
	if t.dir != nil {
		return t.commitUnnamed(exclusive)
	}
	// Closed first: some systems cannot rename an open file.
	if err := t.File.Close(); err != nil {
		return err
	}
	fsys := t.s.fs()
	if exclusive {
		return fsys.Link(t.name, t.target) // discard removes the temporary name
	}
	if err := fsys.Rename(t.name, t.target); err != nil {
		return err
	}
	t.name = ""
	return nil
}

// discard releases t and removes its name, if it still has one of its own.
func (t *tempFile) discard() {
	t.File.Close()
	if t.dir != nil {
		t.dir.Close()
	}
	if t.name != "" {
		t.s.fs().Remove(t.name)
	}
}

// tmpPrefix is the part of base a temporary file's name keeps: enough to tell what it is
// for, short enough that the temporary name fits where base itself just fits (255 bytes).
func tmpPrefix(base string) string {
	const max = 64
	if len(base) <= max {
		return base
	}
	i := max
	for i > 0 && !utf8.RuneStart(base[i]) {
		i--
	}
	return base[:i]
}

// appendTo writes name's current content followed by r to a new file and puts it in
// place, as replace does: a crash leaves the old content or the whole new one, and an
// append to a hard link replaces the link rather than change the file it shares with
// names elsewhere, perhaps outside the root. The old content is streamed, so the memory
// used does not grow with the file; the time does.
//
// Appends from other llmfs processes to the same file take turns by an advisory lock on
// the old file (see [lockFile]); within the process [lockPath] already serializes them.
func (s *Store) appendTo(name string, r io.Reader) (int64, error) {
	var keep fs.FileMode // the mode to keep; 0 for a new file
	old, err := s.lockedOld(name)
	switch {
	case err == nil:
		defer old.Close()
		fi, err := old.Stat()
		if err == nil {
			err = checkRegular(fi)
		}
		if err != nil {
			return 0, err
		}
		keep = fi.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	default:
		return 0, err
	}
	t, err := s.newTemp(name)
	if err != nil {
		return 0, err
	}
	defer t.discard()
	if old != nil {
		_, err = io.Copy(t.File, old)
	}
	var n int64
	if err == nil {
		n, err = io.Copy(t.File, r)
	}
	if err == nil && keep != 0 {
		err = t.File.Chmod(keep)
	}
	if err == nil {
		err = t.sync()
	}
	if err == nil {
		err = t.commit(false)
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// appendLockWait bounds how long an append waits for its turn (see [lockFile]).
const appendLockWait = 10 * time.Second

// lockedOld opens name for an append and locks it. Should another process have put a new
// file in its place while this one waited for the lock, it opens and locks that instead.
func (s *Store) lockedOld(name string) (*os.File, error) {
	deadline := time.Now().Add(appendLockWait)
	for {
		f, err := s.fs().OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return nil, err
		}
		lockFile(f, deadline)
		locked, err := f.Stat()
		if err != nil || !locked.Mode().IsRegular() || time.Now().After(deadline) {
			return f, nil // the caller's Stat and checks say what is wrong, if anything
		}
		if now, err := s.fs().Stat(name); err == nil && os.SameFile(locked, now) {
			return f, nil
		}
		f.Close()
	}
}

// randomSuffix names a temporary file apart from any other.
func randomSuffix() string { return strconv.FormatUint(rand.Uint64(), 36) }
