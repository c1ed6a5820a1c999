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
	if w.virtual {
		return w.resolveVirtual(p)
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

// Rel returns abs relative to the workspace root, or abs itself when it lies outside.
// In a virtual view abs is a virtual path.
func (w *Workspace) Rel(abs string) string {
	if w.virtual {
		if rel, ok := within("/", path.Clean(abs)); ok {
			return rel
		}
	}
	if rel, ok := within(w.root, path.Clean(abs)); ok {
		return rel
	}
	return abs
}

// Abs returns the absolute path p stands for in w (a virtual path in a virtual view), or an
// [CodeInvalidPath] error if p breaks the path rules. It does not look at the store.
func (w *Workspace) Abs(p string) (string, error) {
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	return w.display(r.name), nil
}
