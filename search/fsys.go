package search

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/llmfs/llmfs/internal/hosttemp"
	"github.com/llmfs/llmfs/store"
)

// fileSystem is what the walk and the searchers need from a store. storeFS serves any
// store; hostFS reads a host directory with direct calls, which costs far fewer
// allocations and system calls than going through the store for every file.
type fileSystem interface {
	// readDir lists a directory sorted by name (in any order for a hostFS told so).
	readDir(ctx context.Context, name string) ([]fs.DirEntry, error)
	// open opens a regular file the walk found for reading. Symbolic links on the way are
	// followed only while they stay in the store, and on the host only when the plain
	// open, which refuses every link, fails because of one.
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
	// returns the real host path when there is one ("" otherwise), for loop detection.
	stat(ctx context.Context, name string) (fs.FileInfo, string, error)
}

type storeFS struct {
	s store.Store
	// content lists directories with their small files' content when the store can
	// ([store.ContentLister]): a grep reads every file it lists.
	content bool
}

func (f storeFS) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
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

// hostFS reads the host directory under a [store.Locator] directly. Symbolic links are
// resolved on the host and refused unless the result is inside the store's root, compared
// by path element; a name whose resolution fails is refused too.
type hostFS struct {
	loc  store.Locator
	root string   // real host path of the store root
	dir  *hostDir // the store root, open
	// anyOrder lets readDir return a listing unsorted: find sorts its matches itself,
	// and sorting every listing was a tenth of its CPU on the Linux tree.
	anyOrder bool
}

func newHostFS(loc store.Locator) (hostFS, error) {
	root, err := filepath.EvalSymlinks(loc.HostPath("."))
	if err != nil {
		return hostFS{}, err
	}
	dir, err := openHostDir(root)
	if err != nil {
		return hostFS{}, err
	}
	return hostFS{loc: loc, root: root, dir: dir}, nil
}

func (f hostFS) close() error { return f.dir.close() }

// A modTimer looks up the modification times of many files below a host directory in one
// goroutine, keeping what the lookups share between them; close releases it.
type modTimer interface {
	modTime(name string) (time.Time, error)
	close()
}

func (f hostFS) modTime(ctx context.Context, name string, de fs.DirEntry) (time.Time, error) {
	if de == nil {
		fi, _, err := f.stat(ctx, name)
		if err != nil {
			return time.Time{}, err
		}
		return fi.ModTime(), nil
	}
	return f.linkedModTime(name, f.dir.modTime)
}

// linkedModTime is the modification time of name by lookup, which refuses a symbolic link
// on the way; when there is one (a link the walk followed, or the directory searched), the
// name's directory is resolved on the host and, if it stays inside the root, looked up
// again. The name itself, if a link, is not followed.
func (f hostFS) linkedModTime(name string, lookup func(string) (time.Time, error)) (time.Time, error) {
	mt, err := lookup(name)
	i := strings.LastIndexByte(name, '/')
	if err == nil || !isLinkErr(err) || i < 0 {
		return mt, err
	}
	dir, err := f.resolve(name[:i])
	if err != nil {
		return time.Time{}, err
	}
	return f.dir.modTime(path.Join(dir, name[i+1:]))
}

// readDir and open refuse a symbolic link on the way (any, on Linux with openat2; elsewhere
// only a final one: see [openBeneath]). When there is one, on a path the caller chose to
// follow or in the name of the directory searched, they resolve the path on the host and,
// if it stays inside the root, try again with the resolved path.
func (f hostFS) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	des, err := f.dir.readDir(name, !f.anyOrder)
	if err != nil && isLinkErr(err) {
		var rel string
		if rel, err = f.resolve(name); err == nil {
			des, err = f.dir.readDir(rel, !f.anyOrder)
		}
	}
	return slices.DeleteFunc(des, func(de fs.DirEntry) bool { return hosttemp.IsTemp(de.Name()) }), err
}

func (f hostFS) open(ctx context.Context, name string) (io.ReadCloser, error) {
	r, err := f.dir.open(name)
	if err != nil && isLinkErr(err) {
		var rel string
		if rel, err = f.resolve(name); err == nil {
			r, err = f.dir.open(rel)
		}
	}
	return r, err
}

// resolve returns the name, relative to the root, of the real path of name, which must
// be inside the root.
func (f hostFS) resolve(name string) (string, error) {
	real, err := filepath.EvalSymlinks(f.loc.HostPath(name))
	if err != nil {
		return "", err
	}
	if !inside(f.root, real) {
		return "", &fs.PathError{Op: "open", Path: name, Err: store.ErrEscape}
	}
	rel, err := filepath.Rel(f.root, real)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

func (f hostFS) openFollow(ctx context.Context, name string) (io.ReadCloser, error) {
	fi, real, err := f.stat(ctx, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: store.ErrNotRegular}
	}
	rel, err := filepath.Rel(f.root, real)
	if err != nil {
		return nil, err
	}
	return f.dir.open(filepath.ToSlash(rel))
}

func (f hostFS) stat(ctx context.Context, name string) (fs.FileInfo, string, error) {
	real, err := filepath.EvalSymlinks(f.loc.HostPath(name))
	if err != nil {
		return nil, "", f.storeErr(ctx, name, err)
	}
	if !inside(f.root, real) {
		return nil, "", &fs.PathError{Op: "stat", Path: name, Err: store.ErrEscape}
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, "", f.storeErr(ctx, name, err)
	}
	return fi, real, nil
}

// storeErr turns a host error about name into the store's: the store's own Stat error,
// which names name (not the host path) and wraps the store's sentinels. Should the store
// see no problem, the host error's cause is wrapped under name.
func (f hostFS) storeErr(ctx context.Context, name string, err error) error {
	if _, serr := f.loc.Stat(ctx, name); serr != nil {
		return serr
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: "stat", Path: name, Err: err}
}

// inside reports whether the clean host path p is root or below it.
func inside(root, p string) bool {
	if p == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(p, root)
	}
	return strings.HasPrefix(p, root) && p[len(root)] == filepath.Separator
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
