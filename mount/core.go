package mount

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/overlay"
)

// The session layer and its applier. Processes' changes land in Options.Layer at once;
// the applier carries them onto the workspace beneath (Options.Base), one change set per
// actor, when the file system has been quiet for Options.Quiet, at fsync, and at unmount.
// A path created and removed in between is no pending change, so it leaves no entry.
//
// Conflicts: a file someone else changed on the workspace since the mount first saw it is
// not lost either way. The later write wins: the mount's version is written over the
// other, as its own change, so the other's version stays in the journal, undoable with
// 'llmfs undo'. The overlay's refusal to apply it (a conflict) is logged.

// meta is what the session keeps of a path that the stores cannot: its mode and mtime.
type meta struct {
	perm  uint32
	mtime time.Time
}

// A Core is one mount's state, shared by its faces (FUSE, NFS): the session, its open
// files and their spill files, and the rules of the work mode. A face translates its
// protocol into the Core's operations, each given the path and the actor of the change;
// it keeps nothing of the session itself.
type Core struct {
	ws       *llmfs.Workspace // what processes see: the session layer, or the workspace
	direct   *llmfs.Workspace // for paths never journaled (nil without a layer)
	opts     Options
	spillDir string

	mu      sync.Mutex
	files   map[Key]*openFile
	meta    map[string]meta
	created map[string]bool   // paths this mount made: read-write mode may remove them
	pending map[string]string // path -> actor of its last change, not yet applied
	later   later             // links and modes for the apply at the end (later.go)
	spare   spares            // emptied spill files (spare.go)
	last    time.Time         // of the last change
	first   time.Time         // of the oldest change not applied

	writers atomic.Int64 // open descriptors that write
	applyMu sync.Mutex
	stopc   chan struct{}
	done    chan struct{}
}

// NewCore makes the state of a mount of ws; [Core.Start] starts its applier.
func NewCore(ws *llmfs.Workspace, opts Options) (*Core, error) {
	if opts.Layer != nil && opts.Base == nil {
		return nil, errors.New("mount: a session layer needs its base workspace")
	}
	dir := opts.SpillDir
	if dir == "" {
		dir = os.TempDir()
	}
	m := &Core{
		ws:       ws.With(llmfs.RequireRead(false)),
		opts:     opts,
		spillDir: dir,
		files:    map[Key]*openFile{},
		meta:     map[string]meta{},
		created:  map[string]bool{},
		pending:  map[string]string{},
		later:    later{links: map[string]laterLink{}, attrs: map[string]laterAttrs{}},
		stopc:    make(chan struct{}),
		done:     make(chan struct{}),
	}
	if opts.Layer != nil && len(opts.JournalIgnore) > 0 {
		m.direct = opts.Base.With(llmfs.OnStore(unjournaled{opts.Base.Store()})).With(llmfs.RequireRead(false))
	}
	return m, nil
}

// unjournaled hides a store's journal, so that the workspace over it records nothing.
type unjournaled struct{ store.Store }

// wsFor is the workspace the changes to p go through.
func (m *Core) wsFor(p string) *llmfs.Workspace {
	if m.direct != nil && m.ignored(p) {
		return m.direct
	}
	return m.ws
}

// touch notes a change to p by actor, to apply.
func (m *Core) touch(p, actor string) {
	if m.opts.Layer == nil || (m.direct != nil && m.ignored(p)) {
		return
	}
	m.mu.Lock()
	if len(m.pending) == 0 {
		m.first = time.Now()
	}
	m.pending[p] = actor
	m.last = time.Now()
	m.mu.Unlock()
}

// overdue is how many quiet periods a change waits at most: a long build is never quiet,
// and its changes are applied meanwhile all the same.
const overdue = 10

// changed notes activity that may end a quiet period.
func (m *Core) changed() {
	m.mu.Lock()
	m.last = time.Now()
	m.mu.Unlock()
}

// Logf logs a line where the mount's options say (Options.Log).
func (m *Core) Logf(format string, args ...any) { m.logf(format, args...) }

func (m *Core) logf(format string, args ...any) {
	if m.opts.Log != nil {
		m.opts.Log(format, args...)
	}
}

// Start runs the applier when the mount applies on quiet.
func (m *Core) Start() {
	if m.opts.Layer == nil || m.opts.Quiet <= 0 {
		close(m.done)
		return
	}
	go func() {
		defer close(m.done)
		t := time.NewTicker(m.opts.Quiet / 2)
		defer t.Stop()
		for {
			select {
			case <-m.stopc:
				return
			case <-t.C:
			}
			m.mu.Lock()
			quiet := len(m.pending) > 0 && time.Since(m.last) >= m.opts.Quiet && m.writers.Load() == 0
			late := len(m.pending) > 0 && time.Since(m.first) >= overdue*m.opts.Quiet
			m.mu.Unlock()
			if quiet || late {
				if err := m.Flush(context.Background()); err != nil {
					m.logf("llmfs mount: applying changes: %v", err)
				}
			}
		}
	}()
}

// Stop ends the applier and applies what is left.
func (m *Core) Stop() error {
	close(m.stopc)
	<-m.done
	defer m.closeSpares()
	return m.Flush(context.Background())
}

// synced is fsync of p: on a mount that applies as it goes, p is applied now.
func (m *Core) synced(ctx context.Context, p string) error {
	if m.opts.Layer == nil || m.opts.Quiet <= 0 {
		return nil // the layer keeps it (llmfs run applies once, at the end)
	}
	return m.apply(ctx, map[string][]string{m.actorOf(p): {p}}, false)
}

func (m *Core) actorOf(p string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a, ok := m.pending[p]; ok {
		return a
	}
	return m.opts.Actor
}

// Flush applies every pending change now, grouped by actor (what 'llmfs run' does when
// the command ends).
func (m *Core) Flush(ctx context.Context) error {
	if m.opts.Layer == nil {
		return nil
	}
	m.mu.Lock()
	groups := map[string][]string{}
	for p, a := range m.pending {
		groups[a] = append(groups[a], p)
	}
	m.mu.Unlock()
	for _, a := range m.laterActors() {
		if _, ok := groups[a]; !ok {
			groups[a] = nil
		}
	}
	return m.apply(ctx, groups, true)
}

// apply applies the pending changes at the paths of each actor, one change set each; with
// all (every pending change) the links and modes that wait for it too (later.go).
func (m *Core) apply(ctx context.Context, groups map[string][]string, all bool) error {
	m.applyMu.Lock()
	defer m.applyMu.Unlock()
	actors := make([]string, 0, len(groups))
	for a := range groups {
		actors = append(actors, a)
	}
	slices.Sort(actors)
	var errs []error
	for _, a := range actors {
		paths := groups[a]
		slices.Sort(paths)
		actor := a
		if actor == "" {
			actor = "mount"
		}
		m.opts.Layer.SetActor(actor)
		var err error
		var links map[string]laterLink
		var attrs map[string]llmfs.Attrs
		if all {
			links, attrs = m.takeLater(a)
		}
		if len(links)+len(attrs) > 0 {
			at := paths
			if len(at) == 0 { // no paths would be every actor's
				at = append(sortedKeys(links), sortedKeys(attrs)...)
			}
			_, err = m.opts.Layer.ApplyBeneath(ctx, at, m.beneath(actor, links, attrs))
		} else if len(paths) > 0 {
			_, err = m.opts.Layer.Apply(ctx, paths, nil)
		}
		m.mu.Lock()
		for _, p := range paths {
			if m.pending[p] == a {
				delete(m.pending, p)
			}
		}
		m.first = time.Now() // what is still pending changed after the apply began
		m.mu.Unlock()
		if err != nil {
			errs = append(errs, m.resolve(ctx, actor, err))
		}
	}
	return errors.Join(errs...)
}

// resolve settles the conflicts of an apply: the mount's version wins (see above).
func (m *Core) resolve(ctx context.Context, actor string, err error) error {
	var errs []error
	for _, e := range unjoin(err) {
		var c *overlay.ConflictError
		if !errors.As(e, &c) {
			errs = append(errs, e)
			continue
		}
		m.logf("llmfs mount: %s changed on the workspace while mounted (%s); the mount's version wins, the other stays undoable", c.Path, c.What)
		if err := m.force(ctx, actor, c.Path); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Path, err))
		}
	}
	return errors.Join(errs...)
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// force writes the layer's version of the store name over the base, as actor, and drops
// it from the layer.
func (m *Core) force(ctx context.Context, actor, name string) error {
	layer := m.opts.Layer
	base := m.opts.Base.With(llmfs.Actor(actor)).With(llmfs.RequireRead(false))
	// The layer's version is copied to a file of the mount's own first (streamed: it may
	// be large), since the discard below drops it from the layer.
	f, err := layer.Open(ctx, name)
	var spill *os.File
	if err == nil {
		spill, err = os.CreateTemp(m.spillDir, "force-*")
		if err == nil {
			os.Remove(spill.Name())
			defer spill.Close()
			_, err = io.Copy(spill, f)
		}
		f.Close()
	}
	gone := errors.Is(err, os.ErrNotExist)
	if err != nil && !gone {
		return err
	}
	if _, err := layer.Discard(ctx, []string{name}, nil); err != nil {
		return err
	}
	p := name // the workspace is at its store's root (a host directory, a store workspace)
	if gone {
		_, err = base.Delete(ctx, p)
		return err
	}
	if _, err := spill.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err = base.WriteFrom(ctx, p, spill, llmfs.WriteOptions{})
	return err
}
