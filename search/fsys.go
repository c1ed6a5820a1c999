package search

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/llmfs/llmfs/store"
)

// fileSystem is what the walk and the searchers need from a store. storeFS serves any
// store; dirFS reads a store that opens directory handles ([store.DirOpener], a host
// directory) through them, which costs far fewer allocations and system calls than going
// through the store's methods by name for every file.
type fileSystem interface {
	// readDir lists a directory sorted by name (in any order for a dirFS told so).
	readDir(ctx context.Context, name string) ([]fs.DirEntry, error)
	// open opens a regular file the walk found for reading. Symbolic links on the way are
	// followed only while they stay in the store, and through a directory handle only
	// when the plain open, which refuses every link, fails because of one.
	open(ctx context.Context, name string) (io.ReadCloser, error)
	// openFollow opens a regular file for reading, following symbolic links only while
	// they stay in the store.
	openFollow(ctx context.Context, name string) (io.ReadCloser, error)
	// modTime returns the modification time of the file name, found by the walk as de
	// (nil when reached through a symbolic link).
	modTime(ctx context.Context, name string, de fs.DirEntry) (time.Time, error)
	// close releases what the file system holds; call it once nothing uses it any more.
	close() error
	// stat describes name, following symbolic links only while they stay in the store, and
	// returns its real store name when the store has links ("" otherwise), for loop
	// detection.
	stat(ctx context.Context, name string) (fs.FileInfo, string, error)
}

type storeFS struct {
	s store.Store
	// content lists directories with their small files' content when the store can
	// ([store.ContentLister]): a grep reads every file it lists.
	content bool
	// walk lists directories for one walk when the store can list a tree ahead
	// ([store.TreeContentLister]): a grep lists each directory once.
	walk store.DirContentLister
}

func (f storeFS) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if f.walk != nil {
		return f.walk.ReadDirContent(ctx, name)
	}
	if cl, ok := f.s.(store.ContentLister); ok && f.content {
		return cl.ReadDirContent(ctx, name)
	}
	return f.s.ReadDir(ctx, name)
}

func (f storeFS) open(ctx context.Context, name string) (io.ReadCloser, error) {
	return f.s.Open(ctx, name)
}

func (f storeFS) close() error { return nil }

func (f storeFS) modTime(ctx context.Context, name string, de fs.DirEntry) (time.Time, error) {
	var fi fs.FileInfo
	var err error
	if de != nil {
		fi, err = de.Info()
	} else {
		fi, err = f.s.Stat(ctx, name)
	}
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

func (f storeFS) openFollow(ctx context.Context, name string) (io.ReadCloser, error) {
	return f.s.Open(ctx, name)
}

func (f storeFS) stat(ctx context.Context, name string) (fs.FileInfo, string, error) {
	fi, err := f.s.Stat(ctx, name)
	return fi, "", err
}

// dirFS reads a store that opens its directories as handles ([store.DirOpener]: a host
// directory) through them: each name is opened below the store's root, or a listed
// directory below its parent's handle, following no symbolic link, in one or a few system
// calls, which costs far fewer allocations than going through the store for every file.
// A name that meets a link is resolved by the store ([store.RealName], which refuses one
// that leads out of the store) and opened again by its real name.
type dirFS struct {
	s    store.Store
	root store.DirHandle // the store's root, open
	// anyOrder lets readDir return a listing unsorted: find sorts its matches itself,
	// and sorting every listing was a tenth of its CPU on the Linux tree.
	anyOrder bool
}

func newDirFS(s store.DirOpener) (dirFS, error) {
	root, err := s.OpenDir(context.Background(), ".")
	if err != nil {
		return dirFS{}, err
	}
	return dirFS{s: s, root: root}, nil
}

func (f dirFS) close() error { return f.root.Close() }

// A modTimer looks up the modification times of many files below a directory in one
// goroutine, keeping what the lookups share between them; close releases it.
type modTimer interface {
	modTime(name string) (time.Time, error)
	close()
}

func (f dirFS) modTime(ctx context.Context, name string, de fs.DirEntry) (time.Time, error) {
	if de == nil {
		fi, _, err := f.stat(ctx, name)
		if err != nil {
			return time.Time{}, err
		}
		return fi.ModTime(), nil
	}
	return f.linkedModTime(ctx, name, f.root.ModTime)
}

// linkedModTime is the modification time of name by lookup, which refuses a symbolic link
// on the way; when there is one (a link the walk followed, or the directory searched), the
// name's directory is resolved by the store and, if it stays inside, looked up again. The
// name itself, if a link, is not followed.
func (f dirFS) linkedModTime(ctx context.Context, name string, lookup func(string) (time.Time, error)) (time.Time, error) {
	mt, err := lookup(name)
	i := strings.LastIndexByte(name, '/')
	if err == nil || !isLinkErr(err) || i < 0 {
		return mt, err
	}
	dir, err := f.resolve(ctx, name[:i])
	if err != nil {
		return time.Time{}, err
	}
	return f.root.ModTime(joinName(dir, name[i+1:]))
}

// readDir and open refuse a symbolic link on the way. When there is one, on a path the
// caller chose to follow or in the name of the directory searched, they resolve the path
// and, if it stays inside the store, try again with the resolved path.
func (f dirFS) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	des, err := f.list(name)
	if err != nil && isLinkErr(err) {
		var rel string
		if rel, err = f.resolve(ctx, name); err == nil {
			des, err = f.list(rel)
		}
	}
	return des, err
}

// list lists the directory name, following no link.
func (f dirFS) list(name string) ([]fs.DirEntry, error) {
	d, err := f.root.OpenDir(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(f.anyOrder)
}

func (f dirFS) open(ctx context.Context, name string) (io.ReadCloser, error) {
	r, err := f.root.Open(name)
	if err != nil && isLinkErr(err) {
		var rel string
		if rel, err = f.resolve(ctx, name); err == nil {
			r, err = f.root.Open(rel)
		}
	}
	return r, err
}

// resolve returns the real store name of name, which must be inside the store.
func (f dirFS) resolve(ctx context.Context, name string) (string, error) {
	return store.RealName(ctx, f.s, name)
}

func (f dirFS) openFollow(ctx context.Context, name string) (io.ReadCloser, error) {
	fi, real, err := f.stat(ctx, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: store.ErrNotRegular}
	}
	return f.root.Open(real)
}

// stat describes name as the store does, following links inside it, and returns its
// real store name.
func (f dirFS) stat(ctx context.Context, name string) (fs.FileInfo, string, error) {
	fi, err := f.s.Stat(ctx, name)
	if err != nil {
		return nil, "", err
	}
	real, err := f.resolve(ctx, name)
	if err != nil {
		return nil, "", err
	}
	return fi, real, nil
}

// isLinkErr reports whether err is a [store.DirHandle]'s refusal of a symbolic link.
func isLinkErr(err error) bool { return errors.Is(err, store.ErrSymlink) }

// dirHandle is a directory a walk listed, held open while its subdirectories are listed
// relative to it.
type dirHandle struct{ d store.DirHandle }

func (h *dirHandle) close() { h.d.Close() }

// modTime returns the modification time of base, an entry of h, without following it if
// it is a symbolic link.
func (h *dirHandle) modTime(base string) (time.Time, error) {
	return h.d.ModTime(base)
}

// readDirAt lists the directory name, opened relative to its parent's handle when there
// is one, and returns it open, for its own subdirectories to be opened relative to it:
// each open then resolves one path element, not the whole path from the root again,
// which at a depth of thousands made a walk quadratic and then failed (a path longer than
// PATH_MAX). The open follows no symbolic link (see [store.DirHandle]), and the parent
// was opened the same way, so the directory is inside the root when it is opened. Should
// a directory held open be moved out of the root by a process on the host, its entries
// are listed where it went, as a file being read when it is moved is read on: the walk
// never resolves a path through a link or "..", but it holds what it opened. Where the
// open meets a symbolic link (a name the walk follows by choice), readDirAt lists as
// readDir does, and returns no handle.
func (f dirFS) readDirAt(parent *dirHandle, name string) ([]fs.DirEntry, *dirHandle, error) {
	var d store.DirHandle
	var err error
	if parent == nil {
		d, err = f.root.OpenDir(name)
	} else {
		d, err = parent.d.OpenDir(name[strings.LastIndexByte(name, '/')+1:])
	}
	if err != nil {
		if isLinkErr(err) {
			des, err := f.readDir(context.Background(), name)
			return des, nil, err
		}
		return nil, nil, err
	}
	des, err := d.ReadDir(f.anyOrder)
	if err != nil {
		d.Close()
		return nil, nil, err
	}
	return des, &dirHandle{d: d}, nil
}

// dirStatter looks up modification times below a root as [store.DirHandle.ModTime] does,
// keeping the last parent directory open: a find stats its matches in walk order, so most
// share the directory of the one before, and opening it for each (to follow no link on
// the way) made a find of the Linux tree's *.c files a fifth more costly.
type dirStatter struct {
	root   store.DirHandle
	parent string
	d      store.DirHandle // parent, open; nil when none is
}

func newStatter(root store.DirHandle) modTimer { return &dirStatter{root: root} }

func (s *dirStatter) modTime(name string) (time.Time, error) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return s.root.ModTime(name)
	}
	if s.d == nil || name[:i] != s.parent {
		s.close()
		d, err := s.root.OpenDir(name[:i])
		if err != nil {
			return time.Time{}, err
		}
		s.d, s.parent = d, name[:i]
	}
	return s.d.ModTime(name[i+1:])
}

func (s *dirStatter) close() {
	if s.d != nil {
		s.d.Close()
		s.d = nil
	}
}

// readSmall reads a small file (an ignore file) whole, up to max bytes.
func readSmall(ctx context.Context, f fileSystem, name string, max int64) ([]byte, error) {
	r, err := f.open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, max))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return data, nil
}
