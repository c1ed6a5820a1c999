package mount

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/overlay"
)

// Links and modes of a mount that applies once, at the end (llmfs run: Options.Quiet 0).
// The session layer keeps contents only, so a link or a mode made beneath it at once would
// land as a change set of its own, before the run's, and with it the contents it needs:
// 'llmfs undo --set' of the run would not take them back. Such a mount keeps them in the
// session instead (the faces see them at once) and makes them in the run's change set,
// after its contents ([overlay.Overlay.ApplyBeneath]).

// later is what such a mount makes on the workspace when it applies.
type later struct {
	links map[string]laterLink  // symbolic links made: path -> link
	attrs map[string]laterAttrs // modes and times set: path -> attributes
}

type laterLink struct{ target, actor string }

type laterAttrs struct {
	a     llmfs.Attrs
	actor string
}

// deferred reports whether a link or a mode of p waits for the apply at the end.
func (m *Core) deferred(p string) bool {
	return m.opts.Layer != nil && m.opts.Quiet <= 0 && !(m.direct != nil && m.ignored(p))
}

// waiting reports whether p's content, changed by actor, waits in the session layer for
// the applier of a mount that applies as it goes. A mode or time actor sets on it then
// waits too, and goes with the content in the applier's change set: applying the content
// at once, to set the mode beneath the layer, cost a scan of the whole layer each time, and
// a clone that copies thousands of files with their times (git clone of a local
// repository) took quadratic time.
func (m *Core) waiting(p, actor string) bool {
	if m.opts.Layer == nil || (m.direct != nil && m.ignored(p)) {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.pending[p]
	return ok && a == actor
}

// laterLink returns the target of the link p waiting to be made.
func (m *Core) laterLink(p string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l, ok := m.later.links[p]
	return l.target, ok
}

// symlinkLater keeps the link p to target, made by actor, for the apply. It refuses now
// what Workspace.Symlink would refuse then: a store that keeps no links, an empty target,
// one naming a denied path.
func (m *Core) symlinkLater(ctx context.Context, target, p, actor string) error {
	if err := m.checkLinkLater(ctx, target, p); err != nil {
		return err
	}
	m.mu.Lock()
	m.later.links[p] = laterLink{target: target, actor: actor}
	m.mu.Unlock()
	return nil
}

// checkLinkLater is what symlinkLater checks of the link p to target before it keeps it.
func (m *Core) checkLinkLater(ctx context.Context, target, p string) error {
	if _, ok := m.opts.Base.Store().(store.Symlinker); !ok {
		return syscall.EPERM
	}
	if target == "" || strings.IndexByte(target, 0) >= 0 {
		return syscall.EINVAL
	}
	if m.deniedTarget(ctx, p, target) {
		return syscall.EPERM
	}
	dir := path.Dir(p)
	if fi, err := m.stat(ctx, dir); err != nil {
		return err
	} else if !fi.IsDir() {
		return store.ErrNotDir
	}
	return nil
}

// deniedTarget reports whether the link p to target names a denied path (a target outside
// the workspace is never followed, so it names none).
func (m *Core) deniedTarget(ctx context.Context, p, target string) bool {
	paths := m.ws.Paths()
	if path.IsAbs(target) {
		return paths.Within(target) && paths.DeniedPath(ctx, target)
	}
	name, err := paths.StoreName(p)
	if err != nil {
		return false
	}
	to, err := store.LinkTarget(name, target)
	return err == nil && paths.DeniedPath(ctx, to)
}

// setAttrLater keeps attributes of p set by actor for the apply (the session shows them;
// a store that keeps none leaves them to the session).
func (m *Core) setAttrLater(p, actor string, a llmfs.Attrs) {
	if _, ok := m.opts.Base.Store().(store.AttrSetter); !ok {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	la := m.later.attrs[p]
	if a.SetPerm {
		la.a.SetPerm, la.a.Perm = true, a.Perm
	}
	if !a.ModTime.IsZero() {
		la.a.ModTime = a.ModTime
	}
	la.actor = actor
	m.later.attrs[p] = la
}

// unlinkLater drops the link p waiting to be made; it reports whether there was one.
func (m *Core) unlinkLater(p string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.later.links[p]; !ok {
		return false
	}
	delete(m.later.links, p)
	return true
}

// linksUnder reports whether a link waits to be made below the directory p.
func (m *Core) linksUnder(p string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for q := range m.later.links {
		if strings.HasPrefix(q, p+"/") {
			return true
		}
	}
	return false
}

// laterIn returns the names of the links waiting to be made in the directory dir.
func (m *Core) laterIn(dir string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for q := range m.later.links {
		if path.Dir(q) == dir || (dir == "." && !strings.Contains(q, "/")) {
			names = append(names, path.Base(q))
		}
	}
	slices.Sort(names)
	return names
}

// takeLater removes and returns what waits for actor's apply: links first, then modes.
func (m *Core) takeLater(actor string) (links map[string]laterLink, attrs map[string]llmfs.Attrs) {
	m.mu.Lock()
	defer m.mu.Unlock()
	links, attrs = map[string]laterLink{}, map[string]llmfs.Attrs{}
	for p, l := range m.later.links {
		if l.actor == actor {
			links[p] = l
			delete(m.later.links, p)
		}
	}
	for p, a := range m.later.attrs {
		if a.actor == actor {
			attrs[p] = a.a
			delete(m.later.attrs, p)
		}
	}
	return links, attrs
}

// laterActors are the actors something waits for.
func (m *Core) laterActors() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var as []string
	for _, l := range m.later.links {
		as = append(as, l.actor)
	}
	for _, a := range m.later.attrs {
		as = append(as, a.actor)
	}
	return as
}

// beneath makes links and attrs in the change set of an apply, as actor, through the
// workspace's operations (their rules and journal entries). A refusal is logged: the
// contents the run made still land.
func (m *Core) beneath(actor string, links map[string]laterLink, attrs map[string]llmfs.Attrs) overlay.Beneath {
	return func(ctx context.Context, s store.Store, tx store.JournalTx) error {
		var on store.Store = s
		if tx != nil {
			on = inSet{JournalTx: tx, j: m.opts.Base.Store().(store.Journaler).Journal()}
		}
		ws := m.opts.Base.With(llmfs.OnStore(on)).With(llmfs.Actor(actor)).With(llmfs.RequireRead(false))
		for _, p := range sortedKeys(links) {
			if _, err := ws.Symlink(ctx, links[p].target, p); err != nil {
				m.logf("llmfs mount: the link %s: %v", p, err)
			}
		}
		for _, p := range sortedKeys(attrs) {
			if _, err := ws.SetAttr(ctx, p, attrs[p]); err != nil && !isGone(err) {
				m.logf("llmfs mount: the mode or time of %s: %v", p, err)
			}
		}
		return ctx.Err()
	}
}

func sortedKeys[V any](mp map[string]V) []string {
	keys := make([]string, 0, len(mp))
	for k := range mp {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func isGone(err error) bool { return llmfs.CodeOf(err) == llmfs.CodeFileNotFound }

// inSet is the store of an apply's change set as a journaled store whose journal records
// into that same set: a workspace over it journals its operations there.
type inSet struct {
	store.JournalTx
	j store.Journal
}

func (s inSet) Journal() store.Journal { return setJournal{Journal: s.j, tx: s.JournalTx} }

// Lstat and Readlink reach the set's store when it has them (the workspace's link checks).
func (s inSet) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	return store.Lstat(ctx, s.JournalTx, name)
}

// Chtimes reaches the set's store: a time is set unjournaled, as the workspace does.
func (s inSet) Chtimes(ctx context.Context, name string, mtime time.Time) error {
	as, ok := s.JournalTx.(store.AttrSetter)
	if !ok {
		return &fs.PathError{Op: "chtimes", Path: name, Err: errors.ErrUnsupported}
	}
	return as.Chtimes(ctx, name, mtime)
}

// Chmod reaches the set's store (the workspace journals a chmod through the set itself).
func (s inSet) Chmod(ctx context.Context, name string, perm fs.FileMode) error {
	as, ok := s.JournalTx.(store.AttrSetter)
	if !ok {
		return &fs.PathError{Op: "chmod", Path: name, Err: errors.ErrUnsupported}
	}
	return as.Chmod(ctx, name, perm)
}

type setJournal struct {
	store.Journal
	tx store.JournalTx
}

// Apply runs fn in the set already open.
func (j setJournal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	return fn(j.tx)
}

// Prune does nothing inside a change set (it would wait on the set's own transaction).
func (j setJournal) Prune(ctx context.Context, keep store.Retention) (int, error) { return 0, nil }

// linkInfo describes a link waiting to be made.
type linkInfo struct{ name, target string }

func (i linkInfo) Name() string       { return path.Base(i.name) }
func (i linkInfo) Size() int64        { return int64(len(i.target)) }
func (i linkInfo) Mode() fs.FileMode  { return fs.ModeSymlink | 0o777 }
func (i linkInfo) ModTime() time.Time { return time.Now() }
func (i linkInfo) IsDir() bool        { return false }
func (i linkInfo) Sys() any           { return nil }

// renameLater moves the link src waiting to be made to dst, over a file there unless
// noReplace.
func (m *Core) renameLater(ctx context.Context, src, dst, actor string, noReplace bool) error {
	if err := m.clearFor(ctx, dst, actor, noReplace); err != nil {
		return err
	}
	m.renamed(src, dst)
	return nil
}

// moveLinkLater moves the link src, which the workspace had before the mount, to dst: the
// link at dst waits for the apply as one made in the session does, and src is removed in
// the session layer, so that both land in the run's change set. The link is checked as
// symlinkLater checks it before a file at dst is removed: a refusal leaves that file.
func (m *Core) moveLinkLater(ctx context.Context, src, dst, actor string, noReplace bool) error {
	target, err := m.Readlink(ctx, src)
	if err != nil {
		return err
	}
	if err := m.checkLinkLater(ctx, target, dst); err != nil {
		return err
	}
	if err := m.clearFor(ctx, dst, actor, noReplace); err != nil {
		return err
	}
	if err := m.symlinkLater(ctx, target, dst, actor); err != nil {
		return err
	}
	if err := m.remove(ctx, src, actor); err != nil {
		m.unlinkLater(dst)
		return err
	}
	m.forget(src)
	m.touch(src, actor)
	m.touch(dst, actor)
	return nil
}

// clearFor makes room for a link moved to dst: it removes a file there unless noReplace,
// and checks that dst's directory is one.
func (m *Core) clearFor(ctx context.Context, dst, actor string, noReplace bool) error {
	if dfi, err := m.stat(ctx, dst); err == nil {
		switch {
		case noReplace:
			return syscall.EEXIST
		case dfi.IsDir():
			return syscall.EISDIR
		}
		if err := m.Unlink(ctx, dst, actor); err != nil {
			return err
		}
	}
	if fi, err := m.stat(ctx, path.Dir(dst)); err != nil {
		return err
	} else if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	return nil
}
