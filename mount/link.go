package mount

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// Links and attributes, through the workspace's operations (Workspace.Symlink and
// Workspace.SetAttr), so that they keep after the mount ends: symbolic links stored as
// links, chmod and utimensat kept by the store, hard links passed to a host directory
// (link(2)) and refused with EPERM elsewhere. The session layer keeps file contents only,
// so these go beneath it (onBase).

// Symlink makes p a symbolic link to target, stored as written, for actor; the workspace
// refuses a denied name or a target naming a denied path.
func (m *Core) Symlink(ctx context.Context, target, p, actor string) error {
	if m.ReadOnly() {
		return syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) {
		return syscall.EACCES
	}
	if _, _, err := m.Lookup(ctx, p); err == nil {
		return syscall.EEXIST
	}
	if m.deferred(p) {
		if err := m.symlinkLater(ctx, target, p, actor); err != nil {
			return err
		}
		m.made(p, actor)
		return nil
	}
	ws, err := m.onBase(ctx, actor, p)
	if err == nil {
		_, err = ws.With(llmfs.Actor(actor)).Symlink(ctx, target, p)
	}
	if err != nil {
		return linkErr(err)
	}
	m.made(p, actor)
	return nil
}

// Readlink returns the target of the symbolic link p as it was written.
func (m *Core) Readlink(ctx context.Context, p string) (string, error) {
	if m.ws.Paths().DeniedPath(ctx, p) {
		return "", syscall.ENOENT
	}
	if target, ok := m.laterLink(p); ok {
		return target, nil
	}
	name, err := m.ws.Paths().StoreName(p)
	if err != nil {
		return "", err
	}
	sl, ok := m.ws.Store().(interface {
		Readlink(ctx context.Context, name string) (string, error)
	})
	if !ok {
		return "", syscall.EINVAL
	}
	return sl.Readlink(ctx, name)
}

// Link gives the file old a second name p, for actor: link(2) on a host directory, both
// names inside the root, journaled as a new file; EPERM on a store that keeps one name per
// file.
func (m *Core) Link(ctx context.Context, old, p, actor string) error {
	if m.ReadOnly() {
		return syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) || m.ws.Paths().DeniedPath(ctx, old) {
		return syscall.EACCES
	}
	if m.deferred(p) {
		// A mount that applies once (llmfs run) keeps the run's changes for its one change
		// set. A hard link is made beneath the session layer, after what it needs is
		// applied: that would split the run into a set per link and journal the layer's
		// temporaries. Refused, tools fall back (git renames its objects into place).
		return syscall.EPERM
	}
	if of := m.openAt(old); of != nil {
		if err := m.commit(ctx, of); err != nil {
			return err // the new name must share what the old one holds
		}
	}
	if _, err := m.onBase(ctx, actor, old); err != nil {
		return err
	}
	ws, err := m.onBase(ctx, actor, p)
	if err != nil {
		return err
	}
	if _, ok := ws.Store().(store.HardLinker); !ok {
		return syscall.EPERM
	}
	oldName, err := ws.Paths().StoreName(old)
	if err != nil {
		return err
	}
	newName, err := ws.Paths().StoreName(p)
	if err != nil {
		return err
	}
	err = ws.History().Record(ctx, actor, "link", func(s store.Store) error {
		hl, ok := s.(store.HardLinker)
		if !ok {
			return &fs.PathError{Op: "link", Path: newName, Err: errors.ErrUnsupported}
		}
		return hl.Link(ctx, oldName, newName)
	})
	if err != nil {
		return linkErr(err)
	}
	m.made(p, actor)
	return nil
}

// made notes p as made by this mount (read-write mode may remove it).
func (m *Core) made(p, actor string) {
	m.mu.Lock()
	m.created[p] = true
	m.mu.Unlock()
	m.touch(p, actor)
}

// linkErr is the refusal of a store that keeps no links: EPERM, as link(2) on a file
// system without them says.
func linkErr(err error) error {
	if errors.Is(err, errors.ErrUnsupported) {
		return syscall.EPERM
	}
	return err
}

// keepAttrs passes a chmod or a utimensat of p to the workspace, so it outlasts the mount.
// A file created and still open is not in the workspace yet, and one being written is
// about to change there: its mode goes with its next commit (keepCreated). A store that
// keeps no attributes leaves them to the session.
func (m *Core) keepAttrs(ctx context.Context, p, actor string, perm *uint32, mtime *time.Time) error {
	if of := m.openAt(p); of != nil && of.isDirty() {
		return nil
	}
	fi, err := m.stat(ctx, p)
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return nil // not in the workspace yet (or gone): the session keeps it
	}
	var a llmfs.Attrs
	if perm != nil && fs.FileMode(*perm&0o777) != fi.Mode().Perm() {
		a.SetPerm, a.Perm = true, fs.FileMode(*perm&0o777) // a chmod that changes nothing leaves no entry
	}
	if mtime != nil {
		a.ModTime = *mtime
	}
	if !a.SetPerm && a.ModTime.IsZero() {
		return nil
	}
	if m.deferred(p) || m.waiting(p, actor) {
		m.setAttrLater(p, actor, a)
		return nil
	}
	ws, err := m.onBase(ctx, actor, p)
	if err == nil {
		_, err = ws.With(llmfs.Actor(actor)).SetAttr(ctx, p, a)
	}
	if err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// isDirty reports whether of's buffer holds what the workspace has not.
func (of *openFile) isDirty() bool {
	of.mu.Lock()
	defer of.mu.Unlock()
	return of.dirty
}

// keepCreated gives a file just written to the workspace the mode it was created with or
// set to while open, when the store has another (an executable a linker wrote).
func (m *Core) keepCreated(ctx context.Context, p, actor string) {
	m.mu.Lock()
	md := m.meta[p]
	m.mu.Unlock()
	if md.perm == 0 {
		return
	}
	want := fs.FileMode(md.perm & 0o777)
	if fi, err := m.statWritten(ctx, p); err != nil || fi.Mode().Perm() == want {
		return
	}
	if m.deferred(p) || m.waiting(p, actor) {
		m.setAttrLater(p, actor, llmfs.Attrs{SetPerm: true, Perm: want})
		return
	}
	ws, err := m.onBase(ctx, actor, p)
	if err != nil {
		return
	}
	if name, err := ws.Paths().StoreName(p); err != nil {
		return
	} else if fi, err := ws.Store().Stat(ctx, name); err != nil || fi.Mode().Perm() == want {
		return
	}
	// Best effort: the session shows the mode anyway.
	ws.With(llmfs.Actor(actor)).SetAttr(ctx, p, llmfs.Attrs{SetPerm: true, Perm: want})
}

// onBase returns the workspace a link or an attribute change of p by actor is made on.
// The session layer keeps file contents only, so such a change goes beneath it, after
// the layer's pending changes at p and above it (the directories it needs, the file it
// changes) are applied.
func (m *Core) onBase(ctx context.Context, actor, p string) (*llmfs.Workspace, error) {
	if m.opts.Layer == nil || (m.direct != nil && m.ignored(p)) {
		return m.wsFor(p), nil
	}
	groups := map[string][]string{}
	m.mu.Lock()
	for q, a := range m.pending {
		if q == p || strings.HasPrefix(p, q+"/") {
			groups[a] = append(groups[a], q)
		}
	}
	m.mu.Unlock()
	if len(groups) > 0 {
		if err := m.apply(ctx, groups, false); err != nil {
			return nil, err
		}
	}
	return m.opts.Base.With(llmfs.RequireRead(false)), nil
}

// moveBase returns the workspace a link moves on from src to dst: beneath the session
// layer, after what is pending at both ends is applied.
func (m *Core) moveBase(ctx context.Context, actor, src, dst string) (*llmfs.Workspace, error) {
	if _, err := m.onBase(ctx, actor, dst); err != nil {
		return nil, err
	}
	return m.onBase(ctx, actor, src)
}

// A DirEntry is a name in a directory and its type: 0 (a file), fs.ModeDir or
// fs.ModeSymlink.
type DirEntry struct {
	Name string
	Type fs.FileMode
}

// ListNames lists the directory p as the workspace does, links as links, with the links it
// leaves out (they dangle, or lead outside the workspace, so it cannot say what they are)
// and those waiting to be made there: a process lists a link it made (ls, git add -A).
func (m *Core) ListNames(ctx context.Context, p string) ([]DirEntry, error) {
	entries, err := m.ws.ListNames(ctx, p)
	if err != nil {
		return nil, err
	}
	links := map[string]bool{}
	for _, name := range m.laterIn(p) {
		links[name] = true
	}
	if name, err := m.ws.Paths().StoreName(p); err == nil {
		des, err := store.ReadDirTypes(ctx, m.ws.Store(), name)
		if err != nil {
			return nil, err
		}
		for _, de := range des {
			if de.Type()&fs.ModeSymlink != 0 {
				links[de.Name()] = true
			}
		}
	}
	out := make([]DirEntry, 0, len(entries)+len(links))
	for _, e := range entries {
		d := DirEntry{Name: e.Name}
		switch {
		case links[e.Name]:
			d.Type = fs.ModeSymlink
			delete(links, e.Name)
		case e.Type == llmfs.TypeDirectory:
			d.Type = fs.ModeDir
		}
		out = append(out, d)
	}
	for _, name := range sortedKeys(links) {
		if !m.ws.Paths().DeniedPath(ctx, Join(p, name)) {
			out = append(out, DirEntry{Name: name, Type: fs.ModeSymlink})
		}
	}
	return out, nil
}
