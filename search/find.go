package search

import (
	"context"
	"errors"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/llmfs/llmfs/internal/glob"
	"github.com/llmfs/llmfs/store"
)

// FindOptions configure [Find].
type FindOptions struct {
	// Pattern is a glob (package github.com/bmatcuk/doublestar/v4): "*", "?", "[a-z]",
	// "{a,b}", and "**" for any number of directories. A pattern without "/" matches the
	// base name at any depth ("*.go"); one with "/" matches the path relative to the
	// directory searched ("cmd/**/*.go").
	Pattern string
	// Limit caps the files returned; 0 means no cap.
	Limit int
	// Walk options, as in [GrepOptions].
	Hidden   bool
	NoIgnore bool
	Follow   bool
	Base     string
	Threads  int
	Skip     func(name string) bool
}

// Found is a file [Find] found.
type Found struct {
	Path    string // store name
	ModTime time.Time
}

// FindResult is the result of [Find]: files newest-modified first, ties broken by path.
type FindResult struct {
	Files []Found
	// Truncated says that more files matched than Limit.
	Truncated bool
}

// Text renders the result one path per line, each ending in a newline.
func (r *FindResult) Text() string {
	var b strings.Builder
	for _, f := range r.Files {
		b.WriteString(f.Path)
		b.WriteByte('\n')
	}
	return b.String()
}

// Find returns the regular files below the directory name (a store name) of s that match
// opts.Pattern. Hidden and ignored files are left out unless opts say otherwise; a
// pattern whose leading directories name hidden ones (".github/**") reaches them, though
// not one that opts.Skip leaves out or, unless opts.Follow, a symbolic link. A bad pattern,
// including one with a ".", ".." or empty element, is a [*PatternError]; a directory that
// cannot be listed is its listing's error.
func Find(ctx context.Context, s store.Store, name string, opts FindOptions) (*FindResult, error) {
	pat := strings.TrimPrefix(opts.Pattern, "./")
	// A ".." element would reach beside the directory searched (and past the roots a
	// client narrowed a server to), so it is no valid pattern.
	if pat == "" || !doublestar.ValidatePattern(pat) || strings.HasPrefix(pat, "/") || hasDotElem(pat) {
		return nil, &PatternError{Kind: "glob", Pattern: opts.Pattern, Err: doublestar.ErrBadPattern}
	}
	if opts.Limit < 0 {
		return nil, &PatternError{Kind: "limit", Pattern: "", Err: errNegative}
	}
	fsys, err := pickFS(s)
	if err != nil {
		return nil, err
	}
	defer fsys.close()
	if h, ok := fsys.(dirFS); ok {
		h.anyOrder = true // the matches are sorted below, not in walk order
		fsys = h
	}
	fi, real, err := fsys.stat(ctx, name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "find", Path: name, Err: store.ErrNotDir}
	}
	byPath := strings.Contains(pat, "/")
	if rest, ok := strings.CutPrefix(pat, "**/"); ok && !strings.Contains(rest, "/") && !strings.Contains(rest, "**") {
		// "**/NAME" is NAME at any depth: matched on names, which lets the walk turn a
		// file away before it builds its path (see walkOptions.keepBase).
		pat, byPath = rest, false
	}
	dir := name
	if byPath {
		// Start below the pattern's literal leading directories.
		if base, rest := doublestar.SplitPattern(pat); base != "." && rest != "" {
			if !enterable(ctx, s, name, base, opts) {
				return &FindResult{}, nil
			}
			dir = joinName(name, base)
			pat = rest
			fi, real, err = fsys.stat(ctx, dir)
			if err != nil || !fi.IsDir() {
				if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir) {
					return &FindResult{}, nil
				}
				return nil, err
			}
		}
	}
	threads := opts.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	match := glob.Compile(pat)
	_, onHost := fsys.(dirFS)
	wk := newWalker(ctx, fsys, walkOptions{
		hidden: opts.Hidden, noIgnore: opts.NoIgnore, follow: opts.Follow, base: opts.Base, threads: threads, skip: opts.Skip,
		keep: func(rel string) bool {
			if !byPath {
				rel = rel[strings.LastIndexByte(rel, '/')+1:]
			}
			return match.Match(rel)
		},
		modTimes: onHost,
	})
	if !byPath {
		wk.opts.keepBase = match.Match
	}
	// What the walk timed is found; the rest (reached through a link, or on a store other
	// than the host) is looked up after it. Of a host entry only whether a link led to it
	// is kept (all dirFS.modTime asks of it): the entry would keep its whole listing
	// alive until the end.
	// The walk visits from its workers at once, in no order: the results are sorted.
	var mu sync.Mutex
	var found []Found
	var untimed []file
	werr := wk.walkAny(dir, real, func(f file) bool {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case !f.modTime.IsZero():
			found = append(found, Found{Path: f.name, ModTime: f.modTime})
		case onHost && f.de != nil:
			untimed = append(untimed, file{name: f.name, de: plainEntry{}})
		default:
			untimed = append(untimed, file{name: f.name, de: f.de})
		}
		return true
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, werr
	}
	found = append(found, modTimes(ctx, fsys, untimed, threads)...)
	sortFound(found, threads)
	res := &FindResult{Files: found}
	if opts.Limit > 0 && len(found) > opts.Limit {
		res.Files, res.Truncated = found[:opts.Limit], true
	}
	return res, nil
}

// enterable reports whether a walk from dir would reach dir/base: whether no directory on
// the way is one opts.Skip leaves out (the walk asks it about each entry alone, never about
// the directories above) or, unless opts.Follow, a symbolic link.
func enterable(ctx context.Context, s store.Store, dir, base string, opts FindOptions) bool {
	for _, elem := range strings.Split(base, "/") {
		dir = joinName(dir, elem)
		if opts.Skip != nil && opts.Skip(dir) {
			return false
		}
		if !opts.Follow {
			if fi, err := store.Lstat(ctx, s, dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return false
			}
		}
	}
	return true
}

// hasDotElem reports whether pat has a "." or ".." element or an empty one inside ("a//b").
// No walked path has one, and as a pattern's literal leading directories they would start
// the walk at a name that is not a store name: outside the directory searched, past the
// skip rules (the workspace's deny rules) that judge the names found below it.
func hasDotElem(pat string) bool {
	elems := strings.Split(strings.TrimSuffix(pat, "/"), "/")
	for _, e := range elems {
		if e == "." || e == ".." || e == "" {
			return true
		}
	}
	return false
}

// modTimes looks up the modification times of files on threads goroutines. A file that
// vanished meanwhile is dropped.
func modTimes(ctx context.Context, fsys fileSystem, files []file, threads int) []Found {
	found := make([]Found, len(files))
	ok := make([]bool, len(files))
	var wg sync.WaitGroup
	chunk := (len(files) + threads - 1) / max(threads, 1)
	for lo := 0; lo < len(files); lo += max(chunk, 1) {
		hi := min(lo+max(chunk, 1), len(files))
		wg.Go(func() {
			modTime := fsys.modTime
			if h, isHost := fsys.(dirFS); isHost {
				// A file the walk found (de set) is stat'ed in its directory, kept open
				// for the files after it in the same one.
				st := newStatter(h.root)
				defer st.close()
				modTime = func(ctx context.Context, name string, de fs.DirEntry) (time.Time, error) {
					if de == nil {
						return h.modTime(ctx, name, de)
					}
					return h.linkedModTime(ctx, name, st.modTime)
				}
			}
			for i := lo; i < hi; i++ {
				f := files[i]
				if mt, err := modTime(ctx, f.name, f.de); err == nil {
					found[i], ok[i] = Found{Path: f.name, ModTime: mt}, true
				}
			}
		})
	}
	wg.Wait()
	out := found[:0]
	for i := range found {
		if ok[i] {
			out = append(out, found[i])
		}
	}
	return out
}

// plainEntry stands for a directory entry of a file reached by no symbolic link, once
// only that is still needed of it: [fileSystem.modTime] then stats the name itself.
type plainEntry struct{ fs.DirEntry }
