package llmfs

import (
	"context"
	"errors"
	"io/fs"
	"path"

	"github.com/llmfs/llmfs/store"
)

// maxTreeDepth bounds how deep [walkTree] descends: no real tree is that deep, and a
// hostile one must not make the walk's memory and descriptors grow without end.
const maxTreeDepth = 4096

// checkpointEvery is how many levels of a walk keep their directories open between two
// that always stay open: see [dirWalk].
const checkpointEvery = 32

// walkTree calls fn for every entry below the store directory dir, depth first, entries of
// a directory sorted by name, with the entry's store name; it descends into a directory
// when fn returns true for it. Directories deeper than [maxTreeDepth] below dir are not
// entered. It stops with the context's error once ctx is done; a subdirectory that cannot
// be listed (gone meanwhile, unreadable) is skipped, but dir itself must be listable.
//
// The walk is linear in the size of the tree: names are built as it descends, and each
// subdirectory is opened relative to its parent ([store.DirHandle]; on a host directory by
// descriptor, following no symbolic link), never resolved from the root again. Through
// the store's methods by name, every listing of a directory d levels deep resolves d path
// elements, so a tree 2,600 levels deep cost millions of system calls (and the AGENT.md
// walk, which also checked each level's parents for deny rules, minutes).
func walkTree(ctx context.Context, s store.Store, dir string, fn func(name string, de fs.DirEntry) bool) error {
	d, err := store.OpenDir(ctx, s, dir)
	if errors.Is(err, store.ErrSymlink) {
		// dir itself leads through a link (the workspace's base, say): the walk starts
		// at its real name, inside the store, and names what it finds below dir.
		var real string
		if real, err = store.RealName(ctx, s, dir); err == nil {
			d, err = store.OpenDir(ctx, s, real)
		}
	}
	if err != nil {
		return err
	}
	return dirWalk(ctx, d, dir, fn)
}

// dirFrame is one directory on the path of a walk.
type dirFrame struct {
	name    string          // store name
	elem    string          // its last element
	dir     store.DirHandle // nil while closed
	entries []fs.DirEntry
}

// dirWalk is walkTree from the open directory d, the store directory dir, which it closes.
//
// Each directory is opened relative to its parent's handle, so it stays inside it whatever
// is renamed or swapped meanwhile. Holding one handle per level would run out of
// descriptors in a deep tree; so only every [checkpointEvery]th level, and those since the
// last such one, stay open. Climbing back to a closed level reopens it from the checkpoint
// above, at most checkpointEvery elements away: the walk stays linear in the depth.
func dirWalk(ctx context.Context, d store.DirHandle, dir string, fn func(name string, de fs.DirEntry) bool) error {
	des, err := d.ReadDir(false)
	if err != nil {
		d.Close()
		return err
	}
	stack := []*dirFrame{{name: dir, dir: d, entries: des}}
	defer func() {
		for _, f := range stack {
			if f.dir != nil {
				f.dir.Close()
			}
		}
	}()
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		top := stack[len(stack)-1]
		if len(top.entries) == 0 {
			if top.dir != nil {
				top.dir.Close()
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
		sub, err := parent.OpenDir(de.Name())
		if err != nil {
			continue // gone, no longer a directory, or swapped for a link
		}
		des, err := sub.ReadDir(false)
		if err != nil {
			sub.Close()
			continue
		}
		stack = append(stack, &dirFrame{name: name, elem: de.Name(), dir: sub, entries: des})
		if depth := len(stack) - 1; depth%checkpointEvery == 0 {
			// A new checkpoint: close the levels between it and the one before.
			for _, f := range stack[depth-checkpointEvery+1 : depth] {
				if f.dir != nil {
					f.dir.Close()
					f.dir = nil
				}
			}
		}
	}
	return nil
}

// reopen returns the open handle of the last frame of stack, opening it again from the
// nearest open frame above if it was closed. It returns nil if that fails (the directory
// was removed or replaced meanwhile); the frame's remaining entries are then skipped.
func reopen(stack []*dirFrame) store.DirHandle {
	top := stack[len(stack)-1]
	if top.dir != nil {
		return top.dir
	}
	j := len(stack) - 2
	for stack[j].dir == nil {
		j--
	}
	var elems []string
	for _, f := range stack[j+1:] {
		elems = append(elems, f.elem)
	}
	d, err := stack[j].dir.OpenDir(path.Join(elems...))
	if err != nil {
		top.entries = nil
		return nil
	}
	top.dir = d
	return d
}
