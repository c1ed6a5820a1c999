package search

import (
	"context"
	"io/fs"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// OutputMode is what a grep reports.
type OutputMode string

// The output modes of [Grep].
const (
	FilesWithMatches OutputMode = "files_with_matches" // the paths of files that match
	Content          OutputMode = "content"            // the matching lines, with context
	Count            OutputMode = "count"              // the number of matching lines per file
)

// GrepOptions configure [Grep].
type GrepOptions struct {
	// Pattern is a regular expression in Go's RE2 syntax (package regexp).
	Pattern string
	// IgnoreCase matches letters of either case.
	IgnoreCase bool
	// Multiline lets matches span lines: "." matches a newline too, and "\n" can appear in
	// the pattern. Each file is then read whole.
	Multiline bool
	// Mode is the output mode; empty means [FilesWithMatches].
	Mode OutputMode
	// LineNumbers puts line numbers in [Content] output (the caller decides the default).
	LineNumbers bool
	// Before and After are the lines of context shown before and after each match in
	// [Content] mode.
	Before, After int
	// Glob keeps only files whose base name (or, when the glob has a "/", path relative to
	// the searched directory) matches it; a leading "!" keeps the others instead.
	Glob string
	// Type keeps only files of a built-in type (see [Types]), as ripgrep's --type.
	Type string
	// HeadLimit caps the entries returned (files, count lines, or output lines including
	// "--" separators, by mode); 0 means no cap.
	HeadLimit int
	// Offset skips that many entries first, so that pages concatenated equal the whole.
	Offset int
	// Walk options.
	Hidden   bool // include names starting with "." and the .git directory
	NoIgnore bool // do not honour .gitignore and .ignore files
	Follow   bool // follow symbolic links that stay inside the store
	// Base is the store name of the directory from which ignore files apply (the workspace
	// root); files in it and in the directories down to the searched one are read.
	// Empty means the store root.
	Base string
	// MaxLineBytes, if positive, keeps at most that many bytes of a line's text in
	// [Content] entries (cut at a character boundary); [Entry.Len] then gives the
	// line's length. A 30 MB one-line file must not become a 30 MB result.
	MaxLineBytes int
	// Threads is the number of goroutines; 0 means GOMAXPROCS.
	Threads int
	// Skip, if not nil, leaves out every entry whose store name it reports true for, and
	// for a directory everything below it: the workspace's deny rules.
	Skip func(name string) bool
}

// EntryKind is the kind of one [Entry] of a grep result.
type EntryKind uint8

// The kinds of entry.
const (
	KindFile      EntryKind = iota // a file with a match (files_with_matches mode)
	KindCount                      // a file and its count of matching lines (count mode)
	KindMatch                      // a matching line (content mode)
	KindContext                    // a line of context (content mode)
	KindSeparator                  // "--" between groups of lines that are not adjacent
)

// Entry is one line of grep output.
type Entry struct {
	Kind  EntryKind
	Path  string // the file's store name; "" for a separator
	Line  int    // 1-based line number, for match and context lines
	Text  string // the line without its newline, for match and context lines
	Len   int    // when Text was cut to GrepOptions.MaxLineBytes, the line's length in bytes
	Count int    // for count entries
}

// GrepResult is the result of [Grep]. Entries come in a stable order: files in the order of
// a depth-first walk with each directory's entries sorted by name (ripgrep's --sort path),
// and lines in file order.
type GrepResult struct {
	Mode        OutputMode
	LineNumbers bool
	Entries     []Entry
	// Truncated says that entries beyond Offset+HeadLimit exist.
	Truncated bool
	// Binary says that the file named, not a directory, was binary and not searched.
	Binary bool
}

// Text renders the result as ripgrep prints it: "path" per file, "path:count", and
// "path:line:text" for matches, "path-line-text" for context, "--" between groups; one
// entry per line, each ending in a newline.
func (r *GrepResult) Text() string {
	var b strings.Builder
	for _, e := range r.Entries {
		b.WriteString(FormatEntry(e, r.LineNumbers))
		b.WriteByte('\n')
	}
	return b.String()
}

// FormatEntry renders one entry as ripgrep would, without a newline.
func FormatEntry(e Entry, lineNumbers bool) string {
	return string(AppendEntry(nil, e, lineNumbers))
}

// AppendEntry appends the entry to b as [FormatEntry] renders it, and returns the result.
func AppendEntry(b []byte, e Entry, lineNumbers bool) []byte {
	switch e.Kind {
	case KindFile:
		return append(b, e.Path...)
	case KindCount:
		b = append(b, e.Path...)
		b = append(b, ':')
		return strconv.AppendInt(b, int64(e.Count), 10)
	case KindSeparator:
		return append(b, "--"...)
	}
	sep := byte(':')
	if e.Kind == KindContext {
		sep = '-'
	}
	b = append(b, e.Path...)
	b = append(b, sep)
	if lineNumbers {
		b = strconv.AppendInt(b, int64(e.Line), 10)
		b = append(b, sep)
	}
	return append(b, e.Text...)
}

// Grep searches the file or directory name (a store name) of s for opts.Pattern. When s opens
// directory handles ([store.DirOpener]), files are read through them. Files that hold a NUL byte in
// their first 8000 bytes, or start with a binary format's signature, are binary and
// skipped; when name is such a file, [GrepResult.Binary] says so. A bad pattern, glob or type is a
// [*PatternError]; a name that cannot be read is the store's error.
func Grep(ctx context.Context, s store.Store, name string, opts GrepOptions) (*GrepResult, error) {
	var all []Entry
	res, err := GrepFunc(ctx, s, name, opts, func(e Entry) bool {
		all = append(all, e)
		return true
	})
	if err != nil {
		return nil, err
	}
	res.Entries = all
	return res, nil
}

// GrepFunc is [Grep] that hands each entry to yield as soon as the entries before it are
// known, in the same order, rather than collecting them: memory then stays bounded
// whatever the size of the output. Offset and HeadLimit apply as in Grep; the result it
// returns has no Entries. When yield returns false the search stops, and the result is
// not Truncated by that. An error that ends the search after some entries were yielded
// (the directory searched cannot be listed, the context ends) is returned, unless the
// entries up to HeadLimit were all yielded: what was yielded is then the whole answer.
func GrepFunc(ctx context.Context, s store.Store, name string, opts GrepOptions, yield func(Entry) bool) (*GrepResult, error) {
	if err := checkGrepOptions(&opts); err != nil {
		return nil, err
	}
	m, err := compile(opts.Pattern, opts.IgnoreCase, opts.Multiline)
	if err != nil {
		return nil, err
	}
	flt, err := newFilter(opts.Glob, opts.Type)
	if err != nil {
		return nil, err
	}
	fsys, err := grepFS(s)
	if err != nil {
		return nil, err
	}
	defer fsys.close() // deferred first, so it runs after every goroutine is done
	fi, real, err := fsys.stat(ctx, name)
	if err != nil {
		return nil, err
	}
	threads := opts.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	res := &GrepResult{Mode: opts.Mode, LineNumbers: opts.LineNumbers && opts.Mode == Content}
	need := 0 // entries needed before stopping; 0 = all
	if opts.HeadLimit > 0 {
		need = opts.Offset + opts.HeadLimit + 1
	}
	withContext := opts.Mode == Content && (opts.Before > 0 || opts.After > 0)
	seen := 0        // entries so far, the skipped ones included
	stopped := false // yield said stop, or the entries past the head limit are known to exist
	one := func(e Entry) bool {
		seen++
		switch {
		case seen <= opts.Offset:
			return true
		case opts.HeadLimit > 0 && seen > opts.Offset+opts.HeadLimit:
			res.Truncated, stopped = true, true
			return false
		case !yield(e):
			stopped = true
			return false
		}
		return true
	}
	// add hands on a file's entries; more says they follow entries of the same file
	// handed on already (a part), so no separator goes between them.
	add := func(out []Entry, more bool) bool {
		if len(out) == 0 {
			return true
		}
		if withContext && !more && seen > 0 && !one(Entry{Kind: KindSeparator}) {
			return false
		}
		for _, e := range out {
			if !one(e) {
				return false
			}
		}
		return true
	}

	newSearcher := func() *searcher {
		sr := &searcher{m: m, mode: opts.Mode, before: opts.Before, after: opts.After, max: need, maxLine: opts.MaxLineBytes, buf: make([]byte, bufSize)}
		if m.dfa != nil {
			sr.dfa = m.dfa.clone(max(dfaBudget/threads, minDFABudget))
		}
		return sr
	}
	if !fi.IsDir() {
		binary, err := grepFile(ctx, fsys, name, fi, newSearcher, add, &stopped)
		if err != nil {
			return nil, err
		}
		res.Binary = binary
		return res, nil
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Files go to the workers in batches (see [job]).
	jobs := make(chan *job)
	order := make(chan *job, orderAhead) // room to run far ahead of a slow file
	ahead := newByteGate(outAhead)
	wo := opts.walkOptions(threads, flt)
	_, wo.holdFiles = fsys.(dirAtFS)
	wk := newWalker(ctx, fsys, wo)
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			grepWorker(ctx, wk, newSearcher(), jobs, ahead)
		}()
	}
	var werr error // set by the walking goroutine before wg.Done
	wg.Add(1)
	go func() {
		defer wg.Done()
		werr = feedJobs(ctx, wk, name, real, jobs, order)
	}()
	collectJobs(ctx, order, ahead, add)
	err = ctx.Err()
	cancel()
	ahead.stop()
	for range order {
	}
	wg.Wait()
	if err == nil {
		err = werr
	}
	if err != nil && !stopped {
		return nil, err
	}
	return res, nil
}

// grepFS is the file system a grep reads s through: [pickFS]'s, and for a store that can
// list files with their content, one that asks for it (for a tree at once when it can: a
// grep's file system serves one walk).
func grepFS(s store.Store) (fileSystem, error) {
	fsys, err := pickFS(s)
	if err != nil {
		return nil, err
	}
	if sf, ok := fsys.(storeFS); ok {
		sf.content = true
		if tl, ok := s.(store.TreeContentLister); ok {
			sf.walk = tl.ContentWalk()
		}
		fsys = sf
	}
	return fsys, nil
}

// walkOptions are the options of the walk of a grep with threads workers and the file
// filter flt.
func (opts *GrepOptions) walkOptions(threads int, flt *filter) walkOptions {
	wo := walkOptions{hidden: opts.Hidden, noIgnore: opts.NoIgnore, follow: opts.Follow, base: opts.Base, threads: threads, skip: opts.Skip}
	if !flt.none() {
		wo.files = flt.rule
	}
	return wo
}

// checkGrepOptions checks the output mode (FilesWithMatches if none) and the limits.
func checkGrepOptions(opts *GrepOptions) error {
	if opts.Mode == "" {
		opts.Mode = FilesWithMatches
	}
	switch opts.Mode {
	case FilesWithMatches, Content, Count:
	default:
		return &PatternError{Kind: "output mode", Pattern: string(opts.Mode), Err: errBadMode}
	}
	if opts.HeadLimit < 0 || opts.Offset < 0 || opts.Before < 0 || opts.After < 0 {
		return &PatternError{Kind: "limit", Pattern: "", Err: errNegative}
	}
	return nil
}

// grepFile searches the single file name (fi its info) with a searcher from newSearcher,
// handing its entries on through add until *stopped. It reports whether the file is binary.
func grepFile(ctx context.Context, fsys fileSystem, name string, fi fs.FileInfo, newSearcher func() *searcher, add func(out []Entry, more bool) bool, stopped *bool) (bool, error) {
	if !fi.Mode().IsRegular() {
		return false, &fs.PathError{Op: "grep", Path: name, Err: store.ErrNotRegular}
	}
	r, err := fsys.openFollow(ctx, name)
	if err != nil {
		return false, err
	}
	sr := newSearcher()
	parted := false
	sr.part = func(out []Entry) bool {
		more := parted
		parted = true
		return add(out, more)
	}
	out := sr.search(ctx, r, name)
	r.Close()
	if err := ctx.Err(); err != nil && !*stopped {
		return false, err
	}
	if !*stopped {
		add(out, parted)
	}
	return sr.binary, nil
}

// pickFS returns the directory handles of a [store.DirOpener] (a host directory), the
// overlay's own for a layered store, and the store itself otherwise.
func pickFS(s store.Store) (fileSystem, error) {
	if ov, ok := overlayOf(s); ok {
		return newOverlayFS(context.Background(), ov)
	}
	if d, ok := s.(store.DirOpener); ok {
		return newDirFS(d)
	}
	return storeFS{s: s}, nil
}
