package llmfs

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// What llmfs keeps for itself (the journal, intent log, review layers and metadata of a
// host directory, all in its cache directory) may lie inside a workspace's store: a
// workspace rooted at the home directory holds ~/.cache/llmfs. The store says so
// ([store.Reserver]) and the workspace keeps those names out of bounds like a deny rule
// no option turns off: invisible in listings, searches and the history, and every
// operation on them, or through a symbolic link that leads to them, refused with
// [CodePermissionDenied]. (Not [CodeInvalidPath]: the path is well formed and inside the
// root; it is refused for what it holds, as a denied path is, and an agent treats both
// alike: leave it alone.)

// setReserved takes the store's reserved names. A workspace whose root lies inside one,
// its whole tree llmfs's, is refused: it could neither be used nor protected.
func (w *Workspace) setReserved() error {
	names := store.Reserved(w.store)
	w.reserved = nil
	for _, n := range names {
		w.reserved = append(w.reserved, foldName(n))
	}
	if w.isReserved(w.base) {
		return &Error{Code: CodeInvalidPath, Path: w.root,
			Msg: fmt.Sprintf("the workspace root %s lies inside llmfs's cache directory, where llmfs keeps its journal and metadata; choose another root, or set LLMFS_CACHE_DIR to a directory outside it", w.root)}
	}
	return nil
}

// isReserved reports whether the store name is reserved or lies below a reserved name.
// Names are compared case-folded, as deny rules are: on a file system that ignores case,
// ".CACHE/llmfs" is the same directory.
func (w *Workspace) isReserved(name string) bool {
	if len(w.reserved) == 0 {
		return false
	}
	folded := foldName(name)
	for _, r := range w.reserved {
		if r == "." || folded == r || strings.HasPrefix(folded, r+"/") {
			return true
		}
	}
	return false
}

// reservedPath reports whether the store name, or the real name its symbolic links lead
// to, is reserved. A name the store cannot resolve is not: the operation's own error says
// why.
func (w *Workspace) reservedPath(ctx context.Context, name string) bool {
	if len(w.reserved) == 0 {
		return false
	}
	if w.isReserved(name) {
		return true
	}
	real, err := store.RealName(ctx, w.store, name)
	return err == nil && real != name && w.isReserved(real)
}

// reservedEntry is reservedPath for the entry de of the store directory dir: only a
// symbolic link needs resolving.
func (w *Workspace) reservedEntry(ctx context.Context, dir string, de fs.DirEntry) bool {
	if len(w.reserved) == 0 {
		return false
	}
	name := joinName(dir, de.Name())
	if de.Type()&fs.ModeSymlink == 0 {
		return w.isReserved(name)
	}
	return w.reservedPath(ctx, name)
}

// skipReserved is the search filter for reserved names, or nil when there are none. The
// workspace's walks never follow a symbolic link (nor enter one: the directory searched
// has passed [Workspace.check], its link resolved), so the names alone decide.
func (w *Workspace) skipReserved() func(name string) bool {
	if len(w.reserved) == 0 {
		return nil
	}
	return w.isReserved
}

// reservedError is the refusal of an operation on a reserved path.
func reservedError(p string) error {
	return &Error{Code: CodePermissionDenied, Path: p,
		Msg: fmt.Sprintf("access denied: %s belongs to llmfs itself (its journal and metadata) and is not part of the workspace's files; leave it alone and work with other files", p)}
}
