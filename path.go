package llmfs

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"
)

// resolved is a path after the workspace's rules: the store name to use, and the absolute
// path to show.
type resolved struct {
	arg  string // as the caller wrote it
	name string // store name
	abs  string // absolute, cleaned
	// slash: the path ends in "/" (or "/."), so it names a directory, as in POSIX; see
	// [Workspace.slashDir].
	slash bool
}

// resolve applies the path rules of the workspace to p: an empty path or one holding a NUL
// byte is refused; a relative path joins the root; "." and ".." are folded lexically; in
// sandbox mode the result must be the root or below it, compared element by element.
// Symbolic links are the store's to follow: store/osdir refuses any that lead out.
func (w *Workspace) resolve(p string) (resolved, error) {
	if w.windows {
		return w.resolveWindows(p) // path_windows_rules.go
	}
	return w.resolveSlash(p)
}

// resolveSlash is resolve for slash-separated paths, the rules on every host.
func (w *Workspace) resolveSlash(p string) (resolved, error) {
	if p == "" {
		return resolved{}, errorf(CodeInvalidPath, p, "path is empty")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return resolved{}, errorf(CodeInvalidPath, p, "path contains a NUL byte")
	}
	if !utf8.ValidString(p) {
		// Store names are UTF-8 (fs.ValidPath); say so here rather than fail in the store.
		return resolved{}, errorf(CodeInvalidPath, p, "path is not valid UTF-8: %q", p)
	}
	r, err := w.resolveClean(p)
	r.slash = strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.")
	return r, err
}

func (w *Workspace) resolveClean(p string) (resolved, error) {
	if w.virtual {
		return w.resolveVirtual(p)
	}
	abs := p
	if !path.IsAbs(p) {
		abs = w.root + "/" + p
	}
	abs = path.Clean(abs)
	r := resolved{arg: p, abs: abs}
	if rel, ok := w.within(abs); ok {
		r.name = rel
		if w.base != "." {
			r.name = joinName(w.base, rel)
		}
		return r, nil
	}
	if !w.relaxed {
		return resolved{}, errorf(CodeInvalidPath, p, "path is outside the workspace root %s: %s", w.root, p)
	}
	// Relaxed and outside the root: the store is rooted at "/" (see Open).
	if w.base == "." && w.root != "/" {
		return resolved{}, errorf(CodeInvalidPath, p, "path is outside the store: %s", p)
	}
	r.name = strings.TrimPrefix(abs, "/")
	if r.name == "" {
		r.name = "."
	}
	return r, nil
}

// slashDir holds a path that ends in a slash to what POSIX makes of it: it names a
// directory, so "h.txt/" is not the file h.txt (ENOTDIR) and a write to "newf/" does not
// create a file "newf". A directory, or a missing path when the operation would not create
// it (create false: its own FILE_NOT_FOUND follows), is left to the operation.
func (w *Workspace) slashDir(ctx context.Context, r resolved, create bool) error {
	if !r.slash {
		return nil
	}
	fi, err := w.store.Stat(ctx, r.name)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		return errorf(CodeInvalidPath, r.arg, "not a directory, though the path ends in a slash, which names one: %s", r.arg)
	case create && errors.Is(err, fs.ErrNotExist):
		return errorf(CodeInvalidPath, r.arg, "the path ends in a slash, which names a directory; a file's path has none: %s", r.arg)
	}
	return nil
}

// resolveVirtual resolves a virtual path: "/" is the root, ".." is refused outright.
func (w *Workspace) resolveVirtual(p string) (resolved, error) {
	for elem := range strings.SplitSeq(p, "/") {
		if elem == ".." {
			return resolved{}, errorf(CodeInvalidPath, p, "'..' is not allowed in paths; use an absolute path from the workspace root /, like /src/main.go: %s", p)
		}
	}
	abs := path.Clean("/" + p)
	rel := "."
	if abs != "/" {
		rel = abs[1:]
	}
	return resolved{arg: p, abs: abs, name: joinName(w.base, rel)}, nil
}

// within reports whether the clean absolute path p is the workspace root or below it, and
// its name relative to the root. The root has two spellings: its canonical path, and the
// path it was opened by when a symbolic link leads to it (a root under /tmp on macOS, or
// "--root s/link"), which is how the caller knows it. Either is the same directory, so
// either is inside (seed 002: the resolved real path must lie under the root).
func (w *Workspace) within(p string) (string, bool) {
	if rel, ok := within(w.root, p); ok {
		return rel, true
	}
	if w.alias != "" {
		return within(w.alias, p)
	}
	return "", false
}

// isWithin is [Paths.Within].
func (w *Workspace) isWithin(p string) bool {
	if w.virtual {
		return path.IsAbs(p)
	}
	_, ok := w.within(path.Clean(p))
	return ok && path.IsAbs(p)
}

// within reports whether the clean absolute path p is root or below it, and its name
// relative to root ("." for root itself). Elements are compared whole, so "/ws-evil" is not
// within "/ws".
func within(root, p string) (string, bool) {
	if p == root {
		return ".", true
	}
	if root == "/" {
		if !strings.HasPrefix(p, "/") {
			return "", false // relative: within nothing, and p[1:] would cut its first letter
		}
		return p[1:], true
	}
	if strings.HasPrefix(p, root) && p[len(root)] == '/' {
		return p[len(root)+1:], true
	}
	return "", false
}

func joinName(dir, name string) string {
	switch {
	case dir == ".":
		return name
	case name == ".":
		return dir
	}
	return dir + "/" + name
}

// display returns the absolute path of a store name (the virtual path in a virtual view).
func (w *Workspace) display(name string) string {
	if w.virtual {
		rel := name
		if w.base != "." {
			if rel == w.base {
				rel = "."
			} else {
				rel = strings.TrimPrefix(rel, w.base+"/")
			}
		}
		if rel == "." {
			return "/"
		}
		return "/" + rel
	}
	if w.base != "." {
		if name == "." {
			return "/"
		}
		return "/" + name
	}
	if name == "." {
		return w.root
	}
	return path.Join(w.root, name)
}

// relName returns the store name name as the workspace shows it, relative to its root:
// w.rel(w.display(name)), without the allocations of that in the common cases: a store
// rooted at the root, and a name below the root of a workspace whose store is rooted
// higher up (find and grep ask this of every entry and every result).
func (w *Workspace) relName(name string) string {
	if !w.virtual && w.base == "." {
		return name // the store is rooted at the root: its names are the relative paths
	}
	if !w.virtual && w.base != "." && len(name) > len(w.base)+1 && name[len(w.base)] == '/' &&
		strings.HasPrefix(name, w.base) && len(w.root) == len(w.base)+1 && w.root[0] == '/' && w.root[1:] == w.base {
		return name[len(w.base)+1:]
	}
	return w.rel(w.display(name))
}

// rel is [Paths.Rel].
func (w *Workspace) rel(abs string) string {
	if !path.IsAbs(abs) {
		return path.Clean(abs)
	}
	if w.virtual {
		if rel, ok := within("/", path.Clean(abs)); ok {
			return rel
		}
	}
	if rel, ok := w.within(path.Clean(abs)); ok {
		return rel
	}
	return abs
}

// abs is [Paths.Abs].
func (w *Workspace) abs(p string) (string, error) {
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	return w.display(r.name), nil
}
