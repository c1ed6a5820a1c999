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
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/llmfs/llmfs/internal/namesort"
	"github.com/llmfs/llmfs/store"
)

// Store is a host directory. Create one with [New].
type Store struct {
	dir     string   // absolute host path of the store root, symlinks resolved
	root    *os.Root // nil in relaxed mode
	relaxed bool
	journal journalState // see journal.go
	snap    snapRoot     // see snapshot_unix.go
	known   knownFiles   // see known.go
	// reserved is the store name of llmfs's cache directory when it overlaps the store
	// (see reserved.go); "" when it does not.
	reserved string
	scratch  bool // writes are not synced (scratch.go)
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
	s.closeSnap()
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
	Chtimes(name string, atime, mtime time.Time) error
	Symlink(oldname, newname string) error
	Readlink(name string) (string, error)
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

func (h hostFS) Chtimes(name string, atime, mtime time.Time) error {
	return os.Chtimes(h.s.HostPath(name), atime, mtime)
}
func (h hostFS) Symlink(oldname, newname string) error {
	return os.Symlink(oldname, h.s.HostPath(newname))
}
func (h hostFS) Readlink(name string) (string, error) { return os.Readlink(h.s.HostPath(name)) }

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
