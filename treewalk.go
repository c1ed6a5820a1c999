package llmfs

import (
	"context"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/llmfs/llmfs/internal/hosttemp"
	"github.com/llmfs/llmfs/store"
)

// maxTreeDepth bounds how deep [walkTree] descends: no real tree is that deep, and a
// hostile one must not make the walk's memory and descriptors grow without end.
const maxTreeDepth = 4096

// checkpointEvery is how many levels of a host walk keep their directories open between
// two that always stay open: see [hostWalk].
const checkpointEvery = 32

// walkTree calls fn for every entry below the store directory dir, depth first, entries of
// a directory sorted by name, with the entry's store name; it descends into a directory
// when fn returns true for it. Directories deeper than [maxTreeDepth] below dir are not
// entered. It stops with the context's error once ctx is done; a subdirectory that cannot
// be listed (gone meanwhile, unreadable) is skipped, but dir itself must be listable.
//
// The walk is linear in the size of the tree: names are built as it descends, and on a host
// directory ([store.Locator]) each subdirectory is opened relative to its parent's
// descriptor, never resolved from the root again. Through the store, every listing of a
// directory d levels deep resolves d path elements, so a tree 2,600 levels deep cost
// millions of system calls (and the AGENT.md walk, which also checked each level's parents
// for deny rules, minutes).
func walkTree(ctx context.Context, s store.Store, dir string, fn func(name string, de fs.DirEntry) bool) error {
	if loc, ok := s.(store.Locator); ok {
		if r, err := os.OpenRoot(loc.HostPath(dir)); err == nil {
			return hostWalk(ctx, r, dir, fn)
		}
	}
	return storeWalk(ctx, s, dir, fn)
}

// storeWalk is walkTree through the store's ReadDir.
func storeWalk(ctx context.Context, s store.Store, dir string, fn func(name string, de fs.DirEntry) bool) error {
	type frame struct {
		name    string
		entries []fs.DirEntry
	}
	des, err := s.ReadDir(ctx, dir)
	if err != nil {
		return err
	}
	stack := []frame{{dir, des}}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		top := &stack[len(stack)-1]
		if len(top.entries) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		de := top.entries[0]
		top.entries = top.entries[1:]
		name := joinName(top.name, de.Name())
		if !fn(name, de) || !de.IsDir() || len(stack) > maxTreeDepth {
			continue
		}
		if des, err := s.ReadDir(ctx, name); err == nil {
			stack = append(stack, frame{name, des})
		}
	}
	return nil
}

// hostFrame is one directory on the path of a host walk.
type hostFrame struct {
	name    string   // store name
	elem    string   // its last element
	root    *os.Root // nil while closed
	entries []fs.DirEntry
}

// hostWalk is walkTree on the host directory r, the store directory dir.
//
// Each directory is opened as an [os.Root] relative to its parent's, so it stays inside
// it whatever is renamed or swapped meanwhile. Holding one descriptor per level would run
// out of them in a deep tree; so only every [checkpointEvery]th level, and those since the
// last such one, stay open. Climbing back to a closed level reopens it from the checkpoint
// above, at most checkpointEvery elements away: the walk stays linear in the depth.
func hostWalk(ctx context.Context, r *os.Root, dir string, fn func(name string, de fs.DirEntry) bool) error {
	des, err := readRootDir(r)
	if err != nil {
		r.Close()
		return err
	}
	stack := []*hostFrame{{name: dir, root: r, entries: des}}
	defer func() {
		for _, f := range stack {
			if f.root != nil {
				f.root.Close()
			}
		}
	}()
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		top := stack[len(stack)-1]
		if len(top.entries) == 0 {
			if top.root != nil {
				top.root.Close()
			}
			stack = stack[:len(stack)-1]
			continue
		}
		de := top.entries[0]
		top.entries = top.entries[1:]
		name := joinName(top.name, de.Name())
		if !fn(name, de) || !de.IsDir() || len(stack) > maxTreeDepth {
			continue
		}
		parent := reopen(stack)
		if parent == nil {
			continue
		}
		sub, err := parent.OpenRoot(de.Name())
		if err != nil {
			continue // gone, or no longer a directory
		}
		des, err := readRootDir(sub)
		if err != nil {
			sub.Close()
			continue
		}
		stack = append(stack, &hostFrame{name: name, elem: de.Name(), root: sub, entries: des})
		if depth := len(stack) - 1; depth%checkpointEvery == 0 {
			// A new checkpoint: close the levels between it and the one before.
			for _, f := range stack[depth-checkpointEvery+1 : depth] {
				if f.root != nil {
					f.root.Close()
					f.root = nil
				}
			}
		}
	}
	return nil
}

// reopen returns the open root of the last frame of stack, opening it again from the
// nearest open frame above if it was closed. It returns nil if that fails (the directory
// was removed or replaced meanwhile); the frame's remaining entries are then skipped.
func reopen(stack []*hostFrame) *os.Root {
	top := stack[len(stack)-1]
	if top.root != nil {
		return top.root
	}
	j := len(stack) - 2
	for stack[j].root == nil {
		j--
	}
	var elems []string
	for _, f := range stack[j+1:] {
		elems = append(elems, f.elem)
	}
	r, err := stack[j].root.OpenRoot(path.Join(elems...))
	if err != nil {
		top.entries = nil
		return nil
	}
	top.root = r
	return r
}

// readRootDir lists the directory r, sorted by name.
func readRootDir(r *os.Root) ([]fs.DirEntry, error) {
	f, err := r.Open(".")
	if err != nil {
		return nil, err
	}
	des, err := f.ReadDir(-1)
	f.Close()
	// As the store's own listings: the temporary files of writes under way (or left by a
	// crash) are not the tree's, and must not count against a quota.
	des = slices.DeleteFunc(des, func(de fs.DirEntry) bool { return hosttemp.IsTemp(de.Name()) })
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des, err
}
