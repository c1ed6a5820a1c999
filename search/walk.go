package search

import (
	"context"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmfs/llmfs/store"
)

// walkOptions choose what a walk visits.
type walkOptions struct {
	hidden   bool // visit names starting with "." (including .git)
	noIgnore bool // do not read .gitignore and .ignore files
	follow   bool // follow symbolic links that stay inside the store
	base     string
	threads  int
	// files, if not nil, rules on each file before the hidden and ignore rules.
	files func(rel string) verdict
	// skip, if not nil, leaves out the entries whose store name it reports true for.
	skip func(name string) bool
	// keep, if not nil, takes only the files it reports true for, after every other
	// rule. It is asked in the listing workers, so a find matches its pattern in
	// parallel, and before anything is kept of the files it turns away.
	keep func(rel string) bool
	// keepBase, if not nil, is asked about a regular file's name alone before anything
	// else is done for it (its path built, the skip and ignore rules asked): a file it
	// turns away is left out, as keep would leave it out. A find whose pattern matches
	// names gives it: most of a tree's files cost no more than that.
	keepBase func(base string) bool
	// modTimes has the workers look up the modification time of each file they keep
	// (file.modTime) while its directory is open: a stat relative to the directory's
	// descriptor, in parallel with the walk, instead of a second pass that opens each
	// directory again. A file reached through a symbolic link, or in a directory listed
	// by name, is left without one.
	modTimes bool
	// holdFiles keeps each directory listed through a handle open until its files are
	// opened ([walker.open]): one name relative to the directory's descriptor, not the
	// whole path from the root again (a grep).
	holdFiles bool
}

// verdict is a file filter's ruling, following ripgrep's precedence: a glob overrides
// everything, ignore files come next, and a file type match overrides only hiddenness.
type verdict uint8

const (
	neutral    verdict = iota // the hidden and ignore rules decide
	exclude                   // leave the file out
	include                   // take the file whatever the other rules say
	overHidden                // take the file even if hidden, unless ignored
)

// file is one regular file found by a walk.
type file struct {
	name string      // store name
	rel  string      // relative to the directory searched
	de   fs.DirEntry // nil when the file was reached through a symbolic link
	// modTime is the file's modification time when the walk looked it up (see
	// walkOptions.modTimes); zero otherwise.
	modTime time.Time
	// dir is the directory the file was listed in, held open for it (see
	// walkOptions.holdFiles); nil when not.
	dir *dirNode
}

// dirNode is a directory whose listing a worker reads ahead of the ordered traversal.
type dirNode struct {
	name   string
	rel    string
	real   string // real store name, when known, for symbolic link loop detection
	parent *dirNode
	ig     *ignorer
	claim  atomic.Bool // set by whoever loads n: a worker ahead of the visit, or the visit
	done   chan struct{}
	// h is n held open, when the file system lists relative to a parent ([dirAtFS]),
	// until refs, the subdirectories still to list relative to it and the files still
	// to open in it (walkOptions.holdFiles), fall to zero.
	h     *dirHandle
	refs  atomic.Int32
	items []item // set before done is closed
	err   error  // the listing's error, set before done is closed
	bytes int    // the content its listing brought (store.ContentEntry), set before done is closed
}

type item struct {
	f   file
	sub *dirNode // non-nil for a subdirectory
}

// walker lists a tree in parallel and visits its files in a stable order: the entries of
// each directory sorted by name, depth first (ripgrep's --sort path). Directory listings
// are read by a fixed pool of threads workers ahead of the visit, nearest the visit first
// (a stack), and at most ahead listings are held loaded and not yet visited: the work in
// flight and the memory it holds do not grow with the tree (issue 18.3). A directory no
// worker reached yet the visit lists itself, so a full window never stalls the walk.
type walker struct {
	ctx  context.Context
	fsys fileSystem
	opts walkOptions
	wg   sync.WaitGroup // the workers

	mu        sync.Mutex
	cond      *sync.Cond // signalled when pending grows, held shrinks or the walk stops
	pending   []*dirNode // directories found and not yet claimed; the top is visited soonest
	held      int        // listings loaded ahead of the visit and not yet visited
	ahead     int        // the bound on held
	heldBytes int        // the content those listings brought, bounded by aheadBytes
	stop      bool
	handles   map[*dirHandle]struct{} // the directories held open, closed at the latest when the walk ends
	// unlisted counts the directories queued and not yet listed and visited, for
	// walkAny to know when it is done.
	unlisted int
}

// A dirAtFS is a file system that lists a directory relative to its parent's open handle
// (nil for the directory a walk starts at) and returns it open: opening each directory
// by its whole path from the root costs a resolution per element, quadratic in the
// depth. A nil handle returned means the children are listed by name instead.
type dirAtFS interface {
	readDirAt(parent *dirHandle, name string) ([]fs.DirEntry, *dirHandle, error)
}

// aheadPerThread is how many listings each worker may hold ready ahead of the visit.
const aheadPerThread = 16

// aheadBytes bounds the content that listings held ahead of the visit brought (a database
// store lists small files with their content, store.ContentLister): a worker lists no
// further while they hold this much, so a walk holds at most this plus one listing per
// worker, whatever the number of threads.
const aheadBytes = 16 << 20

func newWalker(ctx context.Context, f fileSystem, opts walkOptions) *walker {
	if opts.threads <= 0 {
		opts.threads = runtime.GOMAXPROCS(0)
	}
	if opts.base == "" {
		opts.base = "."
	}
	w := &walker{ctx: ctx, fsys: f, opts: opts, ahead: aheadPerThread * opts.threads}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// work is a worker: it claims the pending directory nearest the visit and lists it,
// while fewer than ahead listings wait for the visit.
func (w *walker) work() {
	defer w.wg.Done()
	for {
		w.mu.Lock()
		for !w.stop && (len(w.pending) == 0 || w.held >= w.ahead || w.heldBytes >= aheadBytes) {
			w.cond.Wait()
		}
		if w.stop {
			w.mu.Unlock()
			return
		}
		n := w.popPending()
		if n.claim.Swap(true) {
			w.mu.Unlock()
			continue // the visit got there first
		}
		w.held++
		w.mu.Unlock()
		w.load(n)
		if n.bytes > 0 {
			// The visit takes n.bytes off again, before or after: the sum comes right.
			w.mu.Lock()
			w.heldBytes += n.bytes
			w.mu.Unlock()
		}
	}
}

// popPending takes the directory on top of the pending stack, which is not empty; w.mu
// is held.
func (w *walker) popPending() *dirNode {
	last := len(w.pending) - 1
	n := w.pending[last]
	w.pending[last] = nil // the stack keeps no listing alive
	w.pending = w.pending[:last]
	return n
}

// push queues the subdirectories of a listing, the first to be visited on top.
func (w *walker) push(subs []*dirNode) {
	if len(subs) == 0 {
		return
	}
	w.mu.Lock()
	for i := len(subs) - 1; i >= 0; i-- {
		w.pending = append(w.pending, subs[i])
	}
	w.unlisted += len(subs)
	w.mu.Unlock()
	w.cond.Broadcast()
}

// watchContext wakes the workers when the context ends; stop ends the watch.
func (w *walker) watchContext(stop <-chan struct{}) {
	select {
	case <-w.ctx.Done():
		w.mu.Lock()
		w.stop = true
		w.mu.Unlock()
		w.cond.Broadcast()
	case <-stop:
	}
}

// walk visits every file below the directory dir (a store name) in order, until visit
// returns false or the context is done. It returns the error that listing dir itself gave,
// if any: a subdirectory that cannot be listed is skipped, as ripgrep skips it, but a
// search of a directory that cannot be listed must not look like one that found nothing.
func (w *walker) walk(dir, real string, visit func(file) bool) error {
	root := &dirNode{name: dir, real: real, ig: w.ancestorIgnores(dir), done: make(chan struct{})}
	stopWatch := make(chan struct{})
	go w.watchContext(stopWatch)
	for range w.opts.threads {
		w.wg.Add(1)
		go w.work()
	}
	w.visit(root, visit)
	w.mu.Lock()
	w.stop = true
	w.pending = nil
	w.mu.Unlock()
	w.cond.Broadcast()
	close(stopWatch)
	w.wg.Wait()
	// What a walk that stopped early never listed below a directory, or a file never
	// opened, keeps it open: close.
	w.closeHandles()
	return root.err
}

// walkAny visits every file below the directory dir as walk does, but in no particular
// order and from several goroutines at once: each worker visits the files of a listing
// as soon as it has read it. For a caller that orders the files itself (find sorts its
// matches newest first), it spares the ordered walk's waits for the one listing the
// visit needs next, which left a core idle for part of a find of the Linux tree.
func (w *walker) walkAny(dir, real string, visit func(file) bool) error {
	root := &dirNode{name: dir, real: real, ig: w.ancestorIgnores(dir), done: make(chan struct{})}
	w.push([]*dirNode{root})
	stopWatch := make(chan struct{})
	go w.watchContext(stopWatch)
	for range w.opts.threads {
		w.wg.Add(1)
		go w.workAny(visit)
	}
	w.wg.Wait()
	close(stopWatch)
	w.closeHandles()
	return root.err
}

// workAny is a worker of walkAny: it lists the pending directory pushed last (depth
// first, which keeps few directories open and pending) and visits its files, until no
// directory is left to list or the walk stops.
func (w *walker) workAny(visit func(file) bool) {
	defer w.wg.Done()
	for {
		w.mu.Lock()
		for !w.stop && len(w.pending) == 0 {
			w.cond.Wait()
		}
		if w.stop {
			w.mu.Unlock()
			return
		}
		n := w.popPending()
		w.mu.Unlock()

		w.load(n) // queues n's subdirectories before n counts as done
		ok := true
		for i, it := range n.items {
			n.items[i] = item{}
			if it.sub == nil && ok {
				ok = visit(it.f)
			}
		}
		n.items = nil

		w.mu.Lock()
		w.unlisted--
		if !ok || w.unlisted == 0 {
			w.stop = true
			w.pending = nil
		}
		stop := w.stop
		w.mu.Unlock()
		if stop {
			w.cond.Broadcast()
		}
	}
}

func (w *walker) visit(n *dirNode, visit func(file) bool) bool {
	if !n.claim.Swap(true) {
		w.load(n) // no worker got here first: list it now
	} else {
		select {
		case <-n.done:
		case <-w.ctx.Done():
			return false
		}
		w.mu.Lock()
		w.held--
		w.heldBytes -= n.bytes
		w.mu.Unlock()
		w.cond.Signal()
	}
	items := n.items
	n.items = nil // what is visited is let go: only the path to the visit stays held
	for i, it := range items {
		items[i] = item{}
		if it.sub != nil {
			if !w.visit(it.sub, visit) {
				return false
			}
			continue
		}
		if !visit(it.f) {
			return false
		}
	}
	return true
}

// ancestorIgnores reads the ignore files of the directories from the base down to dir,
// dir excluded: rules there apply below too.
func (w *walker) ancestorIgnores(dir string) *ignorer {
	if w.opts.noIgnore || dir == w.opts.base {
		return nil
	}
	var ig *ignorer
	d := w.opts.base
	rest := dir
	if d != "." {
		if !strings.HasPrefix(dir, d+"/") {
			return nil // not below the base: no ignore files above apply
		}
		rest = dir[len(d)+1:]
	}
	elems := strings.Split(rest, "/")
	for i := 0; i < len(elems); i++ {
		git := noGit
		if fi, _, err := w.fsys.stat(w.ctx, joinName(d, ".git")); err == nil {
			git = gitFile
			if fi.IsDir() {
				git = gitDir
			}
		}
		ig = w.readIgnores(ig, d, git)
		d = joinName(d, elems[i])
	}
	return ig
}

// What a directory's ".git" entry is: none, a directory (the root of a repository, with
// its info/exclude), or a file (a worktree or submodule pointing elsewhere).
const (
	noGit = iota
	gitDir
	gitFile
)

// readIgnores adds the ignore files of dir to ig. A directory with a .git entry is the
// root of a repository: the git rules from above stop there, and its info/exclude is read.
func (w *walker) readIgnores(ig *ignorer, dir string, git int) *ignorer {
	if git != noGit {
		ig = ig.withoutGit()
	}
	if git == gitDir {
		if data, err := readSmall(w.ctx, w.fsys, joinName(dir, excludeFile), 1<<20); err == nil {
			ig = parseIgnoreKind(ig, dir, kindExclude, data)
		}
	}
	for _, f := range ignoreFiles {
		data, err := readSmall(w.ctx, w.fsys, joinName(dir, f.name), 1<<20)
		if err == nil {
			ig = parseIgnoreKind(ig, dir, f.kind, data)
		}
	}
	return ig
}

// loadIgnores adds to n's ignore rules those of the ignore files and the git repository
// its listing des shows.
func (w *walker) loadIgnores(n *dirNode, des []fs.DirEntry) {
	git, files := noGit, false
	for _, de := range des {
		switch {
		case de.Name() == ".git" && de.IsDir():
			git = gitDir
		case de.Name() == ".git":
			git = gitFile
		case de.Type().IsRegular() && isIgnoreFile(de.Name()):
			files = true
		}
	}
	if files || git != noGit {
		n.ig = w.readIgnores(n.ig, n.name, git)
	}
}

// load lists n, applies the hidden and ignore rules, queues its subdirectories, and marks
// n done.
func (w *walker) load(n *dirNode) {
	defer close(n.done)
	if w.ctx.Err() != nil {
		return
	}
	des, err := w.list(n)
	if err == nil && !w.opts.noIgnore {
		w.loadIgnores(n, des)
	}
	if err != nil {
		n.err = err
		return
	}
	var subs []*dirNode
	held := 0 // files that hold n open
	defer func() {
		if n.h != nil {
			n.refs.Store(int32(len(subs) + held))
			if len(subs)+held == 0 {
				w.release(n)
			}
		}
		w.push(subs)
	}()
	if len(des) > 0 && w.opts.keep == nil {
		// One allocation: growing by append copied each listing's items several times.
		// (A find keeps few of the files it lists: its items grow as they come.)
		n.items = make([]item, 0, len(des))
	}
	for _, de := range des {
		base := de.Name()
		if w.opts.keepBase != nil && de.Type().IsRegular() && !w.opts.keepBase(base) {
			continue
		}
		name := joinName(n.name, base)
		// rel ends name (the directory searched is a prefix of every name below it): a
		// slice of it rather than a second string per entry.
		rel := name[len(name)-len(base):]
		if n.rel != "" {
			rel = name[len(name)-len(n.rel)-1-len(base):]
		}
		typ := de.Type()
		if typ&fs.ModeSymlink == 0 && !w.opts.hidden && base[0] == '.' && (w.opts.files == nil || typ.IsDir()) && !n.ig.mayWhitelist() {
			continue // the common case, decided before any other work
		}
		if w.opts.skip != nil && w.opts.skip(name) {
			continue
		}
		var real string
		if typ&fs.ModeSymlink != 0 {
			if !w.opts.follow {
				continue
			}
			fi, r, err := w.fsys.stat(w.ctx, name)
			if err != nil {
				continue // dangling, out of the root, or in doubt: skip
			}
			typ, real = fi.Mode().Type(), r
			if typ.IsDir() && (real == "" || n.loops(real)) {
				continue
			}
			de = nil
		}
		if !typ.IsDir() && !typ.IsRegular() {
			continue
		}
		v := neutral
		if w.opts.files != nil && !typ.IsDir() {
			if v = w.opts.files(rel); v == exclude {
				continue
			}
		}
		m := noMatch
		if n.ig != nil && v != include {
			if m = n.ig.match(name, base, typ.IsDir()); m == ignored {
				continue
			}
		}
		// As in ripgrep, a name an ignore file takes back with "!" is searched even
		// when hidden; a file filter's verdict overrides hiddenness too.
		if !w.opts.hidden && base[0] == '.' && v != include && v != overHidden && m != whitelisted {
			continue
		}
		if typ.IsDir() {
			if real == "" && n.real != "" {
				real = joinName(n.real, base)
			}
			sub := &dirNode{name: name, rel: rel, real: real, parent: n, ig: n.ig, done: make(chan struct{})}
			n.items = append(n.items, item{sub: sub})
			subs = append(subs, sub)
			continue
		}
		if w.opts.keep != nil && !w.opts.keep(rel) {
			continue
		}
		f := file{name: name, rel: rel, de: de}
		if w.opts.holdFiles && de != nil && n.h != nil {
			f.dir = n
			held++
		}
		if w.opts.modTimes && de != nil && n.h != nil {
			// On an error (the file gone meanwhile) the time stays zero, for the caller
			// to look up again and drop the file.
			f.modTime, _ = n.h.modTime(base)
		}
		n.items = append(n.items, item{f: f})
		if ce, ok := de.(store.ContentEntry); ok {
			n.bytes += len(ce.Content())
		}
	}
}

// list lists n: relative to its parent's handle when the file system can, keeping n's
// own open for its subdirectories, and by name otherwise.
func (w *walker) list(n *dirNode) ([]fs.DirEntry, error) {
	da, ok := w.fsys.(dirAtFS)
	if !ok {
		return w.fsys.readDir(w.ctx, n.name)
	}
	var parent *dirHandle
	if n.parent != nil {
		parent = n.parent.h
	}
	des, h, err := da.readDirAt(parent, n.name)
	if n.parent != nil && n.parent.h != nil && n.parent.refs.Add(-1) == 0 {
		w.release(n.parent)
	}
	if h != nil {
		w.mu.Lock()
		if w.handles == nil {
			w.handles = make(map[*dirHandle]struct{})
		}
		w.handles[h] = struct{}{}
		w.mu.Unlock()
		n.h = h
	}
	return des, err
}

// closeHandles closes the directories still held open.
func (w *walker) closeHandles() {
	w.mu.Lock()
	for h := range w.handles {
		h.close()
	}
	w.handles = nil
	w.mu.Unlock()
}

// release closes n's handle, which no subdirectory needs any more.
func (w *walker) release(n *dirNode) {
	w.mu.Lock()
	if _, ok := w.handles[n.h]; ok {
		delete(w.handles, n.h)
		n.h.close()
	}
	w.mu.Unlock()
}

// loops reports whether the directory with real store name real is n or above it.
func (n *dirNode) loops(real string) bool {
	for ; n != nil; n = n.parent {
		if n.real == real {
			return true
		}
	}
	return false
}

func joinName(dir, name string) string {
	switch {
	case dir == "." || dir == "":
		return name
	case name == ".":
		return dir
	}
	return dir + "/" + name
}
