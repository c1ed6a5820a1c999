//go:build !js && !wasip1

// Package osdir is a [store.Store] over a directory of the host file system.
//
// In sandbox mode (the default) every access goes through an [os.Root], so no name, symbolic
// link or concurrent rename can reach outside the directory: the kernel resolves each path
// one element at a time below the root's descriptor. A symbolic link whose target is absolute
// but lands inside the root is followed too, by resolving it and retrying through the root.
//
// Walks (grep, find, the core's usage count) go through [Store.OpenDir] instead, a
// [store.DirHandle] per directory: each directory is opened relative to its parent's open
// handle and each file relative to the directory it is read from or the root, and no
// symbolic link is followed on the way or at the end. A directory swapped for a link while a
// walk runs is refused ([store.ErrSymlink]); the caller resolves a link it means to follow
// through the store ([Store.RealName]), which refuses one that leads out. This package is
// the only one in llmfs that opens a host path. What each platform guarantees:
//
//   - Linux 5.6 and later: one openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS per name;
//     the kernel refuses any path that passes through a link or leaves the directory.
//   - Older Linux (or openat2 refused by a seccomp filter), macOS, the BSDs and other
//     Unix systems: the name is opened one element at a time with openat and
//     O_NOFOLLOW|O_DIRECTORY relative to the element before, so no link is followed; a
//     name of n elements costs n system calls.
//   - Windows and other systems: each directory is an [os.Root] opened from its parent's,
//     and every element is checked with Lstat before the open; a link swapped in between
//     the check and the open is followed as os.Root follows links, which never leads out
//     of the directory the walk opened (os.Root's own limits apply, see its documentation).
//
// On every platform a directory the walk holds open and that a process on the host moves
// out of the root is listed where it went, as a file being read when it is moved is read
// on: the walk never resolves a path through a link or "..", but it keeps what it opened.
// Hard links are not links in this sense: a file hard-linked from outside is read.
//
// In relaxed mode names are joined to the directory with plain [os] calls and nothing stops a
// symbolic link from leading elsewhere; llmfs uses it rooted at "/" for its relaxed workspaces.
//
// Special files (FIFOs, sockets, devices) are never opened: [Store.Open] refuses them with
// [store.ErrNotRegular] before anything can block.
//
// Every write, an append included, writes the whole new content aside and renames it into
// place, so a crash leaves the old file or the new one. On Linux the content has no name
// until then (O_TMPFILE and linkat); elsewhere it is a hidden sibling ".NAME.llmfs-XXXX",
// which [Store.ReadDir] never lists and removes once stale (see [IsTemp]).
package osdir

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/llmfs/llmfs/internal/namesort"
	"github.com/llmfs/llmfs/store"
)

// Store is a host directory. Create one with [New].
type Store struct {
	dir     string   // absolute host path of the store root, symlinks resolved
	root    *os.Root // nil in relaxed mode
	relaxed bool
	journal journalState // see journal.go
	// reserved is the store name of llmfs's cache directory when it overlaps the store
	// (see reserved.go); "" when it does not.
	reserved string
}

var (
	_ store.Store   = (*Store)(nil)
	_ store.Locator = (*Store)(nil)
	_ store.Lstater = (*Store)(nil)

	_ store.ConditionalRemover = (*Store)(nil)
)

// New opens dir as a store. Unless relaxed, every access is confined to dir through an
// [os.Root]. The directory's path is made absolute and its symbolic links resolved first.
func New(dir string, relaxed bool) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: store.ErrNotDir}
	}
	s := &Store{dir: real, relaxed: relaxed, reserved: reservedName(real)}
	if !relaxed {
		if s.root, err = os.OpenRoot(real); err != nil {
			return nil, err
		}
		// What a crash left at the top; below, each directory is swept as it is
		// listed. (A relaxed store is the whole host: nothing is swept at open.)
		s.ReadDir(context.Background(), ".") // see dropTemps
	}
	return s, nil
}

// Dir returns the absolute host path of the store's root directory.
func (s *Store) Dir() string { return s.dir }

// Close releases the root directory's descriptor.
func (s *Store) Close() error {
	s.closeJournal()
	if s.root != nil {
		return s.root.Close()
	}
	return nil
}

// HostPath implements [store.Locator].
func (s *Store) HostPath(name string) string {
	if name == "." {
		return s.dir
	}
	return filepath.Join(s.dir, filepath.FromSlash(name))
}

// fsys is the set of calls both modes provide; rootFS confines them, hostFS does not.
type fsys interface {
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	Mkdir(name string, perm fs.FileMode) error
	Remove(name string) error
	Rename(oldname, newname string) error
	Link(oldname, newname string) error
	Chmod(name string, mode fs.FileMode) error
}

type hostFS struct{ s *Store }

func (h hostFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(h.s.HostPath(name), flag, perm)
}
func (h hostFS) Stat(name string) (fs.FileInfo, error)  { return os.Stat(h.s.HostPath(name)) }
func (h hostFS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(h.s.HostPath(name)) }
func (h hostFS) Mkdir(name string, perm fs.FileMode) error {
	return os.Mkdir(h.s.HostPath(name), perm)
}
func (h hostFS) Remove(name string) error { return os.Remove(h.s.HostPath(name)) }
func (h hostFS) Rename(oldname, newname string) error {
	return os.Rename(h.s.HostPath(oldname), h.s.HostPath(newname))
}
func (h hostFS) Link(oldname, newname string) error {
	return os.Link(h.s.HostPath(oldname), h.s.HostPath(newname))
}
func (h hostFS) Chmod(name string, mode fs.FileMode) error {
	return os.Chmod(h.s.HostPath(name), mode)
}

func (s *Store) fs() fsys {
	if s.root != nil {
		return s.root
	}
	return hostFS{s}
}

// do runs fn on name. In sandbox mode, when the root refuses name because a symbolic link
// on the way is absolute, do resolves the link on the host and, if the result is still
// inside the root, runs fn once more on the resolved name, again through the root.
func (s *Store) do(op, name string, fn func(name string) error) error {
	return s.doWith(op, name, s.resolve, fn)
}

// doLink is do for operations on name itself, which must not follow a final symbolic link
// (lstat, mkdir, remove, rename): only the directories on the way are resolved.
func (s *Store) doLink(op, name string, fn func(name string) error) error {
	return s.doWith(op, name, s.resolveParent, fn)
}

func (s *Store) doWith(op, name string, resolve func(string) (string, bool), fn func(name string) error) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: store.ErrInvalidName}
	}
	err := fn(name)
	if err == nil || s.root == nil || !isEscape(err) {
		return fixErr(op, name, err)
	}
	real, ok := resolve(name)
	if !ok {
		return fixErr(op, name, err)
	}
	return fixErr(op, name, fn(real))
}

// resolve follows the symbolic links of name on the host and returns the store name the
// result has, if it is inside the root; in relaxed mode a result outside is a name with
// ".." elements, which hostFS joins to the directory like any other. For a name that does
// not exist yet, its longest existing prefix is resolved and the missing elements are
// joined to the result.
func (s *Store) resolve(name string) (string, bool) {
	host := s.HostPath(name)
	var missing []string
	real, err := filepath.EvalSymlinks(host)
	for errors.Is(err, fs.ErrNotExist) && filepath.Dir(host) != host {
		missing = append(missing, filepath.Base(host))
		host = filepath.Dir(host)
		real, err = filepath.EvalSymlinks(host)
	}
	if err != nil {
		return "", false
	}
	for i := len(missing) - 1; i >= 0; i-- {
		real = filepath.Join(real, missing[i])
	}
	rel, err := filepath.Rel(s.dir, real)
	if err != nil || filepath.IsAbs(rel) {
		return "", false
	}
	if s.root != nil && (rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// isEscape reports whether err is os.Root's refusal of a path that leaves the root. The
// os package does not export that error, so it is recognized by its text; a test pins it.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// fixErr rewrites err in the store's terms: the caller's name, and store sentinels for the
// conditions that have no io/fs twin.
func fixErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var inner error = err
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		inner = pe.Err
	case errors.As(err, &le):
		inner = le.Err
	}
	switch {
	case isEscape(err):
		inner = store.ErrEscape
	case errors.Is(inner, syscall.ENOTDIR):
		inner = store.ErrNotDir
	case errors.Is(inner, syscall.EISDIR):
		inner = store.ErrIsDir
	case errors.Is(inner, syscall.ENOTEMPTY), errors.Is(inner, syscall.EEXIST) && op == "remove":
		inner = store.ErrNotEmpty
	case errors.Is(inner, syscall.EXDEV):
		inner = store.ErrCrossDevice
	case errors.Is(inner, syscall.ELOOP), errors.Is(inner, syscall.ENAMETOOLONG), errors.Is(inner, syscall.EILSEQ):
		inner = fmt.Errorf("%w: %v", store.ErrInvalidName, inner)
	case errors.Is(inner, syscall.ENOSPC), errors.Is(inner, syscall.EDQUOT), errors.Is(inner, syscall.EFBIG):
		inner = fmt.Errorf("%w: %v", store.ErrQuota, inner)
	case errors.Is(inner, syscall.EROFS):
		inner = fmt.Errorf("%w: %v", fs.ErrPermission, inner)
	}
	return &fs.PathError{Op: op, Path: name, Err: inner}
}

// Stat implements [store.Store].
func (s *Store) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := s.do("stat", name, func(n string) (err error) {
		fi, err = s.fs().Stat(n)
		return err
	})
	return fi, err
}

// Lstat implements [store.Lstater].
func (s *Store) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := s.doLink("lstat", name, func(n string) (err error) {
		fi, err = s.fs().Lstat(n)
		return err
	})
	return fi, err
}

// ReadDir implements [store.Store].
func (s *Store) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return s.listDir(name, func(f *os.File, _ string) ([]fs.DirEntry, error) {
		entries, err := f.ReadDir(-1)
		return sortEntries(entries), err
	})
}

// sortEntries sorts a directory's entries by name. A comparison sort of 10,000 names was
// a fifth of the CPU of listing them (see package namesort).
func sortEntries(entries []fs.DirEntry) []fs.DirEntry {
	namesort.Sort(entries, func(e *fs.DirEntry) string { return (*e).Name() })
	return entries
}

// listDir opens the directory name and lists it with read, which sorts the entries by
// name, leaving out this store's temporary files.
func (s *Store) listDir(name string, read func(f *os.File, n string) ([]fs.DirEntry, error)) ([]fs.DirEntry, error) {
	var entries []fs.DirEntry
	err := s.do("readdir", name, func(n string) error {
		f, err := s.fs().OpenFile(n, os.O_RDONLY|oDirectory|syscall.O_NONBLOCK, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		entries, err = read(f, n)
		entries = s.dropTemps(n, entries)
		return err
	})
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// Open implements [store.Store].
func (s *Store) Open(ctx context.Context, name string) (fs.File, error) {
	var f *os.File
	err := s.do("open", name, func(n string) error {
		fi, err := s.fs().Stat(n)
		if err != nil {
			return err
		}
		if err := checkRegular(fi); err != nil {
			return err
		}
		// O_NONBLOCK: should a FIFO be swapped in after the Stat, the open still returns
		// at once, and the second check below refuses it.
		f, err = s.fs().OpenFile(n, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return err
		}
		if fi, err = f.Stat(); err == nil {
			err = checkRegular(fi)
		}
		if err != nil {
			f.Close()
			f = nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// staleTemp is how long a temporary file goes unmodified before it is taken for one a
// crash left behind: a write in progress modifies its file as it goes.
const staleTemp = 10 * time.Minute

// dropTemps removes the temporary files of writes (see [IsTemp]) from the entries of the
// directory dir, so that no listing, search or quota count sees them, and deletes those
// a crash left behind.
func (s *Store) dropTemps(dir string, entries []fs.DirEntry) []fs.DirEntry {
	return slices.DeleteFunc(entries, func(de fs.DirEntry) bool {
		if !hidden(de) {
			return false
		}
		if fi, err := de.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
			s.fs().Remove(path.Join(dir, de.Name()))
		}
		return true
	})
}

func checkRegular(fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return store.ErrIsDir
	case !fi.Mode().IsRegular():
		return store.ErrNotRegular
	}
	return nil
}

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
	if name == "." {
		return 0, &fs.PathError{Op: "write", Path: name, Err: store.ErrIsDir}
	}
	var n int64
	err := s.do("write", name, func(target string) error {
		// Write through a symbolic link to its target, as a shell redirection would,
		// rather than replacing the link with a file.
		if fi, err := s.fs().Lstat(target); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			real, ok := s.resolve(target)
			if !ok {
				return &fs.PathError{Op: "write", Path: target, Err: store.ErrEscape}
			}
			target = real
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
			h, err := s.hash(target)
			if err != nil {
				return err
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
			n, err = s.replace(target, r, 0, true)
			return err
		case store.Replace:
			if opts.IfAbsent && exists {
				return store.ErrChanged
			}
			var keep fs.FileMode // the mode to keep; 0 for a new file
			if exists {
				keep = cur.Mode().Perm()
			}
			n, err = s.replace(target, r, keep, false)
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
func (s *Store) replace(name string, r io.Reader, keep fs.FileMode, exclusive bool) (int64, error) {
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
		err = t.File.Sync()
	}
	if err == nil {
		err = t.commit(exclusive)
	}
	if err != nil {
		return 0, err
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
		err = t.File.Sync()
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

// Mkdir implements [store.Store].
func (s *Store) Mkdir(ctx context.Context, name string) error {
	return s.doLink("mkdir", name, func(n string) error {
		if n == "." {
			return fs.ErrExist
		}
		return s.fs().Mkdir(n, 0o755)
	})
}

// Remove implements [store.Store].
func (s *Store) Remove(ctx context.Context, name string) error {
	return s.doLink("remove", name, func(n string) error {
		if n == "." {
			return fs.ErrInvalid
		}
		return s.fs().Remove(n)
	})
}

// RemoveIf implements [store.ConditionalRemover]. The check and the removal hold the
// path's lock that conditional writes take, so they are one step for this process; another
// process writing the file in between is not excluded (as for a conditional write).
func (s *Store) RemoveIf(ctx context.Context, name, hash string) error {
	return s.doLink("remove", name, func(n string) error {
		if n == "." {
			return store.ErrIsDir
		}
		defer lockPath(s.lockKey(n))()
		fi, err := s.fs().Lstat(n)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return store.ErrChanged
		}
		if err != nil {
			return err
		}
		if err := checkRegular(fi); err != nil {
			return err
		}
		h, err := s.hash(n)
		if err != nil {
			return err
		}
		if h != hash {
			return store.ErrChanged
		}
		return s.fs().Remove(n)
	})
}

// Rename implements [store.Store]. It never replaces newname: on Linux the kernel checks
// that in the same step (RENAME_NOREPLACE); elsewhere a file is hard-linked then unlinked.
func (s *Store) Rename(ctx context.Context, oldname, newname string) error {
	if !fs.ValidPath(newname) || newname == "." {
		return &fs.PathError{Op: "rename", Path: newname, Err: store.ErrInvalidName}
	}
	return s.doLink("rename", oldname, func(old string) error {
		if old == "." {
			return fs.ErrInvalid
		}
		if s.intoItself(old, newname) {
			return fs.ErrInvalid
		}
		err := s.renameNoReplace(old, newname)
		if s.root != nil && isEscape(err) {
			// The root refused newname's directory (do resolves only oldname): follow
			// its links as do would, and try once more through the root.
			if real, ok := s.resolveParent(newname); ok && real != newname {
				if s.intoItself(old, real) {
					return fs.ErrInvalid
				}
				err = s.renameNoReplace(old, real)
			}
		}
		return err
	})
}

// intoItself reports whether oldname is a directory and newname is it or below it: a move
// the kernel refuses with EINVAL, which renameNoReplace would take for a file system
// without RENAME_NOREPLACE. A file renamed to itself or below itself is left to the kernel,
// which says [fs.ErrExist] or [store.ErrNotDir], as the other stores do.
func (s *Store) intoItself(oldname, newname string) bool {
	if newname != oldname && !strings.HasPrefix(newname, oldname+"/") {
		return false
	}
	fi, err := s.fs().Lstat(oldname)
	return err == nil && fi.IsDir()
}

// resolveParent is resolve for the directory of name: name's last element is kept as it
// is, so a rename onto an existing link still finds the link and fails.
func (s *Store) resolveParent(name string) (string, bool) {
	dir, base := path.Split(name)
	if dir == "" {
		return name, true
	}
	real, ok := s.resolve(strings.TrimSuffix(dir, "/"))
	if !ok {
		return "", false
	}
	if real == "." {
		return base, true
	}
	return real + "/" + base, true
}

func randomSuffix() string { return strconv.FormatUint(rand.Uint64(), 36) }
