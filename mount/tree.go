package mount

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"syscall"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// The tree as the faces see it, and the operations that change it: mkdir, unlink, rmdir,
// rename, and what the session keeps of modes and times.

// Join joins a directory path relative to the root ("." for the root) and a name.
func Join(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// ReadOnly reports whether the workspace refuses every change.
func (m *Core) ReadOnly() bool { return m.ws.Settings().Mode == llmfs.ReadOnly }

// Workspace is the workspace the faces see (the session layer, or the workspace).
func (m *Core) Workspace() *llmfs.Workspace { return m.ws }

// stat describes p as the workspace shows it: nothing for a denied path, a symbolic link
// as a link (the kernel follows it, through this mount's lookups and their deny rules).
//
// A missing path is ENOENT whether a deny rule hides it or not, so the store is asked
// first and the rules only for what it has: matching them resolves the path's links in
// the store, element by element, and most of the lookups of a build or a clone are of
// names not there yet (on a SQLite workspace that resolving was 15% of a clone's CPU).
func (m *Core) stat(ctx context.Context, p string) (fs.FileInfo, error) {
	return m.statRules(ctx, p, true)
}

// statWritten is stat of a path the caller has just written through the workspace, whose
// rules let it: they are not matched again.
func (m *Core) statWritten(ctx context.Context, p string) (fs.FileInfo, error) {
	return m.statRules(ctx, p, false)
}

// statRules is stat, matching the deny rules if rules.
func (m *Core) statRules(ctx context.Context, p string, rules bool) (fs.FileInfo, error) {
	ws := m.ws
	denied := func() bool { return rules && p != "." && ws.Paths().DeniedPath(ctx, p) }
	if target, ok := m.laterLink(p); ok {
		if denied() {
			return nil, syscall.ENOENT
		}
		return linkInfo{p, target}, nil
	}
	name, err := ws.Paths().StoreName(p)
	if err != nil {
		if denied() {
			return nil, syscall.ENOENT
		}
		return nil, err
	}
	fi, err := store.Lstat(ctx, ws.Store(), name)
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if denied() {
		return nil, syscall.ENOENT
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
		return nil, syscall.ENOENT // FIFOs, sockets, devices: no operation could use them
	}
	return fi, nil
}

// Lookup describes p: as the workspace has it, or, for a file just created and still open
// for writing (not in the workspace yet, but other processes see it all the same), as its
// buffer has it with the Key it is open under (nil otherwise).
func (m *Core) Lookup(ctx context.Context, p string) (fs.FileInfo, Key, error) {
	fi, err := m.stat(ctx, p)
	if err == nil {
		return fi, nil, nil
	}
	if of := m.openAt(p); of != nil && of.created && !m.ws.Paths().DeniedPath(ctx, p) {
		return newInfo(p), of.key, nil
	}
	return nil, nil, err
}

// An Attr is what a face reports of a file: the store's attributes, with what the session
// knows better (modes and times set through the mount, the size of a write buffer).
type Attr struct {
	Dir   bool
	Link  bool // a symbolic link (Size is its target's length)
	Size  int64
	Perm  uint32
	Mtime time.Time
}

// Attr returns the attributes of p, described by fi; k is its open file (nil: none).
func (m *Core) Attr(k Key, p string, fi fs.FileInfo) Attr {
	a := Attr{Dir: fi.IsDir(), Size: fi.Size(), Perm: uint32(fi.Mode().Perm()), Mtime: fi.ModTime()}
	if fi.Mode()&fs.ModeSymlink != 0 {
		a.Link, a.Perm = true, 0o777
		return a
	}
	if a.Perm == 0 {
		a.Perm = 0o644
		if a.Dir {
			a.Perm = 0o755
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if md, ok := m.meta[p]; ok {
		if md.perm != 0 {
			a.Perm = md.perm
		}
		if !md.mtime.IsZero() {
			a.Mtime = md.mtime
		}
	}
	if of := m.files[k]; k != nil && of != nil && of.spill != nil {
		a.Size = of.size
		if !of.mtime.IsZero() {
			a.Mtime = of.mtime
		}
	}
	return a
}

// SetAttr sets a mode (perm != nil) and a modification time (mtime != nil) of p, open as
// k (nil: not open), for actor: the session shows them at once, and the workspace keeps
// them when its store can (link.go).
func (m *Core) SetAttr(ctx context.Context, k Key, p, actor string, perm *uint32, mtime *time.Time) error {
	if m.ReadOnly() {
		return syscall.EROFS
	}
	m.keepMeta(k, p, perm, mtime)
	return m.keepAttrs(ctx, p, actor, perm, mtime)
}

// keepMeta keeps a mode and a modification time of p, open as k, in the session.
func (m *Core) keepMeta(k Key, p string, perm *uint32, mtime *time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	md := m.meta[p]
	if perm != nil {
		md.perm = *perm & 0o7777
	}
	if mtime != nil {
		md.mtime = *mtime
	}
	m.meta[p] = md
	if of := m.files[k]; k != nil && of != nil && mtime != nil {
		of.mtime = *mtime
	}
}

// Mkdir makes the directory p for actor.
func (m *Core) Mkdir(ctx context.Context, p, actor string) error {
	if m.ReadOnly() {
		return syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, p) {
		return syscall.EACCES
	}
	if _, err := m.stat(ctx, p); err == nil {
		return syscall.EEXIST
	}
	if _, err := m.wsFor(p).With(llmfs.Actor(actor)).Mkdir(ctx, p); err != nil {
		return err
	}
	m.mu.Lock()
	m.created[p] = true
	m.mu.Unlock()
	m.touch(p, actor)
	return nil
}

// mayRemove says whether the work mode lets the mount remove p: read-only never, full
// always, read-write only what this mount created (lock and temporary files).
func (m *Core) mayRemove(p string) error {
	switch m.ws.Settings().Mode {
	case llmfs.ReadOnly:
		return syscall.EROFS
	case llmfs.Full:
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.created[p] {
		return nil
	}
	return syscall.EPERM
}

// remove removes the file or empty directory p through the workspace, as one change by
// actor: the mode was checked by mayRemove (a read-write workspace may remove what the
// mount created, which its Delete refuses).
func (m *Core) remove(ctx context.Context, p, actor string) error {
	ws := m.wsFor(p)
	name, err := ws.Paths().StoreName(p)
	if err != nil {
		return err
	}
	return ws.History().Record(ctx, actor, llmfs.ChangeDelete, func(s store.Store) error { return s.Remove(ctx, name) })
}

// Unlink removes the file p for actor. A file still open keeps its buffer for its
// descriptors, and nothing of it reaches the workspace any more.
func (m *Core) Unlink(ctx context.Context, p, actor string) error {
	if _, ok := m.laterLink(p); ok {
		if err := m.mayRemove(p); err != nil {
			return err
		}
		m.unlinkLater(p)
		m.forget(p)
		return nil
	}
	fi, err := m.stat(ctx, p)
	if err != nil {
		if of := m.openAt(p); of != nil && of.created {
			m.unlinkOpen(of)
			return nil
		}
		return err
	}
	if err := m.mayRemove(p); err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 && m.opts.Layer != nil && !m.deferred(p) {
		return m.unlinkOnBase(ctx, p, actor)
	}
	if err := m.remove(ctx, p, actor); err != nil {
		return err
	}
	if of := m.openAt(p); of != nil {
		m.unlinkOpen(of)
	}
	m.forget(p)
	m.touch(p, actor)
	return nil
}

// unlinkOnBase removes the link p beneath the session layer, where [Core.Symlink] made
// it on a mount that applies as it goes. Removed through the layer, a link made at a
// name the layer had seen as a file came back at the next apply: the layer still took
// the name for one it had made and removed itself, with nothing beneath to remove.
func (m *Core) unlinkOnBase(ctx context.Context, p, actor string) error {
	ws, err := m.onBase(ctx, actor, p)
	if err == nil {
		_, err = ws.With(llmfs.Actor(actor)).Delete(ctx, p)
	}
	if err != nil {
		return linkErr(err)
	}
	m.forget(p)
	return nil
}

// unlinkOpen marks an open file removed.
func (m *Core) unlinkOpen(of *openFile) {
	of.mu.Lock()
	of.unlinked = true
	of.mu.Unlock()
}

// forget drops what the session knew of p.
func (m *Core) forget(p string) {
	m.mu.Lock()
	delete(m.meta, p)
	delete(m.created, p)
	delete(m.later.attrs, p)
	m.mu.Unlock()
}

// Rmdir removes the empty directory p for actor.
func (m *Core) Rmdir(ctx context.Context, p, actor string) error {
	fi, err := m.stat(ctx, p)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	if m.linksUnder(p) {
		return syscall.ENOTEMPTY
	}
	if err := m.mayRemove(p); err != nil {
		return err
	}
	if err := m.remove(ctx, p, actor); err != nil {
		return err
	}
	m.forget(p)
	m.touch(p, actor)
	return nil
}

// Rename renames src to dst for actor, over an existing dst unless noReplace.
func (m *Core) Rename(ctx context.Context, src, dst, actor string, noReplace bool) error {
	if m.ReadOnly() {
		return syscall.EROFS
	}
	if m.ws.Paths().DeniedPath(ctx, dst) {
		return syscall.EACCES
	}
	if m.ignored(src) != m.ignored(dst) {
		return syscall.EXDEV // one side is journaled and the other not: mv copies
	}
	if of := m.openAt(src); of != nil {
		if err := m.commit(ctx, of); err != nil {
			return err
		}
	}
	if _, ok := m.laterLink(src); ok {
		return m.renameLater(ctx, src, dst, actor, noReplace)
	}
	sfi, err := m.stat(ctx, src)
	if err != nil {
		return err
	}
	ws := m.wsFor(src).With(llmfs.Actor(actor))
	if sfi.Mode()&fs.ModeSymlink != 0 && m.deferred(src) && m.deferred(dst) {
		return m.moveLinkLater(ctx, src, dst, actor, noReplace)
	}
	if sfi.Mode()&fs.ModeSymlink != 0 {
		// The session layer keeps contents, not links: a link moves beneath it (link.go).
		bws, err := m.moveBase(ctx, actor, src, dst)
		if err != nil {
			return err
		}
		ws = bws.With(llmfs.Actor(actor))
	}
	dfi, err := m.stat(ctx, dst)
	switch {
	case err != nil:
		_, err = ws.Move(ctx, src, dst)
	case noReplace:
		return syscall.EEXIST
	default:
		err = m.replace(ctx, ws, src, dst, dfi.IsDir())
	}
	if err != nil {
		return err
	}
	m.renamed(src, dst)
	m.touch(src, actor)
	m.touch(dst, actor)
	return nil
}

// replace renames src over the existing dst in one change set: the atomic replace that
// editors, sed -i and git rely on (the workspace's Move refuses an existing destination).
func (m *Core) replace(ctx context.Context, ws *llmfs.Workspace, src, dst string, dir bool) error {
	sname, err := ws.Paths().StoreName(src)
	if err != nil {
		return err
	}
	dname, err := ws.Paths().StoreName(dst)
	if err != nil {
		return err
	}
	return ws.History().Record(ctx, ws.Settings().Actor, llmfs.ChangeMove, func(s store.Store) error {
		if err := s.Remove(ctx, dname); err != nil {
			return err
		}
		return s.Rename(ctx, sname, dname)
	})
}

// renamed moves what the session knew of src (and below it) to dst.
func (m *Core) renamed(src, dst string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	moveKeys(m.meta, src, dst)
	moveKeys(m.created, src, dst)
	moveKeys(m.later.links, src, dst)
	moveKeys(m.later.attrs, src, dst)
}

func moveKeys[V any](mp map[string]V, src, dst string) {
	for k, v := range mp {
		if k == src || len(k) > len(src) && k[:len(src)+1] == src+"/" {
			delete(mp, k)
			mp[dst+k[len(src):]] = v
		}
	}
}

// Space is the room a face reports (statfs): the workspace's quota, not a disk, bounds it.
type Space struct {
	Bytes, FreeBytes int64
	Files, FreeFiles int64
}

// Space returns the room left under the workspace's quota (4 TiB and 2^32 files without).
func (m *Core) Space(ctx context.Context) Space {
	s := Space{Bytes: 1 << 42, FreeBytes: 1 << 42, Files: 1 << 32, FreeFiles: 1 << 32}
	if q := m.ws.Settings().Quota; q.MaxBytes > 0 {
		used, files, err := m.ws.Usage(ctx)
		if err == nil {
			s.Bytes, s.FreeBytes = q.MaxBytes, max(q.MaxBytes-used, 0)
			if q.MaxFiles > 0 {
				s.Files, s.FreeFiles = q.MaxFiles, max(q.MaxFiles-files, 0)
			}
		}
	}
	return s
}

// newInfo describes a file that exists only in a write buffer so far.
type newInfo string

func (i newInfo) Name() string       { return path.Base(string(i)) }
func (i newInfo) Size() int64        { return 0 }
func (i newInfo) Mode() fs.FileMode  { return 0o644 }
func (i newInfo) ModTime() time.Time { return time.Now() }
func (i newInfo) IsDir() bool        { return false }
func (i newInfo) Sys() any           { return nil }
