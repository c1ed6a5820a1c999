package search

import (
	"context"
	"io/fs"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

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

// Grep searches the file or directory name (a store name) of s for opts.Pattern. When s is
// a [store.Locator], files are read directly on the host. Files that hold a NUL byte in
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
	if opts.Mode == "" {
		opts.Mode = FilesWithMatches
	}
	switch opts.Mode {
	case FilesWithMatches, Content, Count:
	default:
		return nil, &PatternError{Kind: "output mode", Pattern: string(opts.Mode), Err: errBadMode}
	}
	if opts.HeadLimit < 0 || opts.Offset < 0 || opts.Before < 0 || opts.After < 0 {
		return nil, &PatternError{Kind: "limit", Pattern: "", Err: errNegative}
	}
	m, err := compile(opts.Pattern, opts.IgnoreCase, opts.Multiline)
	if err != nil {
		return nil, err
	}
	flt, err := newFilter(opts.Glob, opts.Type)
	if err != nil {
		return nil, err
	}
	fsys, err := pickFS(s)
	if err != nil {
		return nil, err
	}
	if sf, ok := fsys.(storeFS); ok {
		sf.content = true
		fsys = sf
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
		if !fi.Mode().IsRegular() {
			return nil, &fs.PathError{Op: "grep", Path: name, Err: store.ErrNotRegular}
		}
		r, err := fsys.openFollow(ctx, name)
		if err != nil {
			return nil, err
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
		res.Binary = sr.binary
		if err := ctx.Err(); err != nil && !stopped {
			return nil, err
		}
		if !stopped {
			add(out, parted)
		}
		return res, nil
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Files go to the workers in batches, in walk order, and come back through order in
	// the same order: one hand-off per batch rather than per file keeps the cost of
	// waking goroutines low on trees of many small files. The entries go to yield as soon
	// as their batch and those before it are done, so what is held is the output of the
	// batches finished ahead of the one awaited, which outAhead bounds. A file whose
	// output passes partBytes hands it on in parts, each waiting until the collector
	// takes it: the collector takes a batch's parts only once the batches before it are
	// done, so a worker waits there and one file's output is never held whole.
	type job struct {
		files []file
		outs  [][]Entry
		seq   int64 // the batch's place in walk order
		size  int64 // the bytes of output in outs, counted into ahead
		parts chan part
		done  chan struct{}
	}
	jobs := make(chan *job)
	order := make(chan *job, orderAhead) // room to run far ahead of a slow file
	ahead := newByteGate(outAhead)
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sr := newSearcher()
			var j *job
			fileNo := 0
			sr.part = func(out []Entry) bool {
				select {
				case j.parts <- part{file: fileNo, entries: out}:
					return true
				case <-ctx.Done():
					return false
				}
			}
			for j = range jobs {
				j.outs = make([][]Entry, len(j.files))
				for i, f := range j.files {
					if ctx.Err() != nil {
						break
					}
					fileNo = i
					if ce, ok := f.de.(store.ContentEntry); ok {
						// Listed with its content (a database store): no open.
						j.outs[i] = sr.searchContent(ctx, ce.Content(), f.name)
						j.files[i] = file{} // let the content go before the batch is collected
					} else {
						open := fsys.open
						if f.de == nil {
							open = fsys.openFollow
						}
						if r, err := open(ctx, f.name); err == nil {
							j.outs[i] = sr.search(ctx, r, f.name)
							r.Close()
						}
					}
					if out := j.outs[i]; len(out) > 0 {
						n := entriesSize(out)
						j.size += n
						if !ahead.take(j.seq, n) {
							break
						}
					}
				}
				close(j.done)
			}
		}()
	}
	wo := walkOptions{hidden: opts.Hidden, noIgnore: opts.NoIgnore, follow: opts.Follow, base: opts.Base, threads: threads, skip: opts.Skip}
	if !flt.none() {
		wo.files = flt.rule
	}
	wk := newWalker(ctx, fsys, wo)
	var werr error // set by the walking goroutine before wg.Done
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		defer close(order)
		var batch []file
		var seq int64
		send := func() bool {
			j := &job{files: batch, seq: seq, parts: make(chan part), done: make(chan struct{})}
			batch = nil
			seq++
			select {
			case order <- j:
			case <-ctx.Done():
				return false
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				return false
			}
			return true
		}
		werr = wk.walk(name, real, func(f file) bool {
			batch = append(batch, f)
			return len(batch) < batchSize || send()
		})
		if len(batch) > 0 {
			send()
		}
	}()
collect:
	for j := range order {
		ahead.await(j.seq)
		next := 0    // the first file of j whose entries are not handed on
		parted := -1 // the file of j that handed on the last part
	batch:
		for {
			select {
			case p := <-j.parts:
				// The files before p's are done: the worker wrote their entries before
				// it sent p.
				for ; next < p.file; next++ {
					out := j.outs[next]
					j.outs[next] = nil
					if !add(out, next == parted) {
						break collect
					}
				}
				more := parted == p.file
				parted = p.file
				if !add(p.entries, more) {
					break collect
				}
			case <-j.done:
				break batch
			case <-ctx.Done():
				break collect
			}
		}
		for ; next < len(j.outs); next++ {
			out := j.outs[next]
			j.outs[next] = nil
			if !add(out, next == parted) {
				break collect
			}
		}
		ahead.give(j.size)
	}
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

// outAhead bounds the bytes of output (lines' text) the workers may hold finished ahead
// of the batch the output waits for. A worker that would pass it waits; what one file
// holds (at most partBytes and a line, see [part]) is always let through, so a single
// huge result still completes.
const outAhead = 1 << 20

// part is a piece of one file's entries, handed on while the file is searched.
type part struct {
	file    int // the file's index in its batch
	entries []Entry
}

// entrySize is the memory of an entry without its text.
const entrySize = int(unsafe.Sizeof(Entry{}))

// entriesSize is the memory an entry list holds, roughly: the entries and their text.
func entriesSize(out []Entry) int64 {
	n := int64(len(out)) * int64(entrySize)
	for i := range out {
		n += int64(len(out[i].Text))
	}
	return n
}

// byteGate bounds the bytes of output held by batches finished ahead of the batch the
// output waits for. A take waits while the bytes held would pass the limit, except for
// the batch awaited (its worker must never wait on the batches after it, which wait on
// it) or when nothing is held.
type byteGate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	held    int64
	limit   int64
	next    int64 // the batch the output waits for
	stopped bool
}

func newByteGate(limit int64) *byteGate {
	g := &byteGate{limit: limit}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// take adds n bytes of the batch seq to what is held, after waiting while that would pass
// the limit. It returns false, without taking, once the gate is stopped.
func (g *byteGate) take(seq, n int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.stopped && seq != g.next && g.held > 0 && g.held+n > g.limit {
		g.cond.Wait()
	}
	if g.stopped {
		return false
	}
	g.held += n
	return true
}

// await says that the output now waits for the batch seq.
func (g *byteGate) await(seq int64) {
	g.mu.Lock()
	g.next = seq
	g.mu.Unlock()
	g.cond.Broadcast()
}

// give returns n bytes taken before.
func (g *byteGate) give(n int64) {
	if n == 0 {
		return
	}
	g.mu.Lock()
	g.held -= n
	g.mu.Unlock()
	g.cond.Broadcast()
}

// stop lets every take return, false, now and later.
func (g *byteGate) stop() {
	g.mu.Lock()
	g.stopped = true
	g.mu.Unlock()
	g.cond.Broadcast()
}

// batchSize is the number of files handed to a worker at once.
const batchSize = 16

// orderAhead is how many batches the workers may finish ahead of the one the collector
// waits for. Trees cluster their large files (a directory of generated headers), and
// while one worker is inside them the others must not run out of work.
const orderAhead = 4096

// pickFS returns the fast host path for a [store.Locator] and the store itself otherwise.
func pickFS(s store.Store) (fileSystem, error) {
	if ov, ok := overlayOf(s); ok {
		return newOverlayFS(context.Background(), ov)
	}
	if loc, ok := s.(store.Locator); ok {
		return newHostFS(loc)
	}
	return storeFS{s: s}, nil
}
