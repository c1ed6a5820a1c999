package llmfs

import (
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
}

// resolve applies the path rules of the workspace to p: an empty path or one holding a NUL
// byte is refused; a relative path joins the root; "." and ".." are folded lexically; in
// sandbox mode the result must be the root or below it, compared element by element.
// Symbolic links are the store's to follow: store/osdir refuses any that lead out.
func (w *Workspace) resolve(p string) (resolved, error) {
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
	abs := p
	if !path.IsAbs(p) {
		abs = w.root + "/" + p
	}
	abs = path.Clean(abs)
	r := resolved{arg: p, abs: abs}
	if rel, ok := within(w.root, abs); ok {
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

// within reports whether the clean absolute path p is root or below it, and its name
// relative to root ("." for root itself). Elements are compared whole, so "/ws-evil" is not
// within "/ws".
func within(root, p string) (string, bool) {
	if p == root {
		return ".", true
	}
	if root == "/" {
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

// display returns the absolute path of a store name.
func (w *Workspace) display(name string) string {
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

// Rel returns abs relative to the workspace root, or abs itself when it lies outside.
func (w *Workspace) Rel(abs string) string {
	if rel, ok := within(w.root, path.Clean(abs)); ok {
		return rel
	}
	return abs
}
