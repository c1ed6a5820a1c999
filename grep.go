package llmfs

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/llmfs/llmfs/search"
)

// GrepMode is what [Workspace.Grep] reports.
type GrepMode = search.OutputMode

// The grep output modes.
const (
	GrepFiles   = search.FilesWithMatches // paths of matching files (the default)
	GrepContent = search.Content          // matching lines, with context
	GrepCount   = search.Count            // matching lines per file
)

// GrepEntry is one line of grep output; its Path is relative to the workspace root.
type GrepEntry = search.Entry

// GrepOptions configure [Workspace.Grep].
type GrepOptions struct {
	// Pattern is a regular expression in Go's RE2 syntax.
	Pattern string
	// Path is the file or directory to search; empty means the workspace root.
	Path string
	// Glob keeps only files whose base name (or, with a "/", path relative to Path)
	// matches it; a leading "!" excludes them instead.
	Glob string
	// Type keeps only files of a built-in type, as ripgrep's --type ("go", "py", ...).
	Type string
	// Mode is the output mode; empty means [GrepFiles].
	Mode GrepMode
	// IgnoreCase matches letters of either case (-i).
	IgnoreCase bool
	// LineNumbers shows line numbers in content mode (-n). Tool faces default it to true.
	LineNumbers bool
	// Before, After: lines of context in content mode (-B, -A; -C sets both).
	Before, After int
	// HeadLimit caps the entries returned: files, count lines, or output lines including
	// "--" separators. 0 means no cap; tool faces default it to 250.
	HeadLimit int
	// Offset skips that many entries first; pages concatenated equal the whole.
	Offset int
	// Multiline lets "." match newlines and matches span lines.
	Multiline bool
	// Hidden includes names starting with "." (and the .git directory).
	Hidden bool
	// NoIgnore stops honouring .gitignore and .ignore files.
	NoIgnore bool
	// MaxBytes caps the bytes of the rendered result ([GrepResult.Text]); the entries
	// that would pass it are left for the next page (Truncated, NextOffset, Note). 0
	// means no cap; tool faces pass [DefaultGrepBytes].
	MaxBytes int
}

// DefaultGrepBytes is the byte cap tool faces put on a grep result, as on a read.
const DefaultGrepBytes = DefaultMaxReadBytes

// GrepResult is the result of [Workspace.Grep]. Files come in a stable order: depth first,
// each directory's entries sorted by name (ripgrep's --sort path); lines in file order.
type GrepResult struct {
	Mode        GrepMode    `json:"mode"`
	LineNumbers bool        `json:"-"`
	Entries     []GrepEntry `json:"-"`
	// Truncated says that entries beyond Offset+HeadLimit exist; NextOffset is then the
	// offset of the next page.
	Truncated  bool `json:"truncated,omitempty"`
	NextOffset int  `json:"next_offset,omitempty"`
	// CutLines counts the lines shown cut to [Limits.MaxLineLength], as reads cut them.
	CutLines int `json:"cut_lines,omitempty"`
	// Binary says that the file named by Path is binary and was not searched (as ripgrep
	// says "binary file matches"); Note says so too.
	Binary bool `json:"binary,omitempty"`
	// Note says why the result stops short (the byte cap cut it, or the file named is
	// binary), and how to go on.
	Note string `json:"note,omitempty"`
}

// Text renders the result as ripgrep prints it: "path" per file, "path:count", and
// "path:line:text" for matches, "path-line-text" for context, "--" between groups of
// lines; each entry on a line ending in a newline.
func (r *GrepResult) Text() string {
	var b strings.Builder
	for _, e := range r.Entries {
		b.WriteString(search.FormatEntry(e, r.LineNumbers))
		b.WriteByte('\n')
	}
	return b.String()
}

// Files returns the paths of the entries that name files (files_with_matches and count
// modes), in order.
func (r *GrepResult) Files() []string {
	var out []string
	for _, e := range r.Entries {
		if e.Kind == search.KindFile || e.Kind == search.KindCount {
			out = append(out, e.Path)
		}
	}
	return out
}

// Grep searches the file or directory opts.Path for opts.Pattern. Binary files (a NUL
// byte in the first 8000 bytes, or a binary format's signature such as PNG's or PDF's:
// skipped, and a binary file named by opts.Path sets Binary and Note), hidden files and ignored files are skipped, and symbolic
// links are not followed, unless opts say otherwise for hidden and ignored files. Lines
// longer than [Limits.MaxLineLength] are cut as reads cut them, and opts.MaxBytes caps the
// result.
//
// An invalid regular expression, glob, type or mode is [CodeInvalidArgument] with the
// parser's message; a bad path is [CodeInvalidPath] or [CodeFileNotFound].
func (w *Workspace) Grep(ctx context.Context, opts GrepOptions) (*GrepResult, error) {
	var all []GrepEntry
	res, err := w.GrepFunc(ctx, opts, func(e GrepEntry) bool {
		all = append(all, e)
		return true
	})
	if err != nil {
		return nil, err
	}
	res.Entries = all
	return res, nil
}

// GrepFunc is [Workspace.Grep] that hands each entry to yield, in the same order, as soon
// as it is known, instead of collecting them in the result: a caller that prints them
// holds memory that does not grow with the output. The result has no Entries; its
// NextOffset, CutLines and Note count the entries yielded. When yield returns false the
// search stops there, and the result is not Truncated by that.
func (w *Workspace) GrepFunc(ctx context.Context, opts GrepOptions, yield func(GrepEntry) bool) (*GrepResult, error) {
	p := opts.Path
	if p == "" {
		p = "."
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpGrep, r); err != nil {
		return nil, err
	}
	if err := w.slashDir(ctx, r, false); err != nil {
		return nil, err
	}
	// As the engine decides it, for the byte cap, which renders each entry as it comes.
	out := &GrepResult{LineNumbers: opts.LineNumbers && opts.Mode == GrepContent}
	b := grepBound{w: w, limit: opts.MaxBytes, res: out}
	res, err := search.GrepFunc(ctx, w.store, r.name, search.GrepOptions{
		Pattern: opts.Pattern, IgnoreCase: opts.IgnoreCase, Multiline: opts.Multiline,
		Mode: opts.Mode, LineNumbers: opts.LineNumbers, Before: opts.Before, After: opts.After,
		Glob: opts.Glob, Type: opts.Type, HeadLimit: opts.HeadLimit, Offset: opts.Offset,
		Hidden: opts.Hidden, NoIgnore: opts.NoIgnore, Base: w.base, Skip: w.skipDenied(),
		MaxLineBytes: grepLineBytes(w.limits),
	}, func(e search.Entry) bool {
		if !b.next(&e) {
			return false
		}
		return yield(e)
	})
	if err != nil {
		return nil, w.searchError(p, err)
	}
	out.Mode, out.LineNumbers, out.Binary = res.Mode, res.LineNumbers, res.Binary
	out.Truncated = out.Truncated || res.Truncated
	if out.Truncated {
		out.NextOffset = opts.Offset + b.n
	}
	if out.Note != "" {
		out.Note = fmt.Sprintf(out.Note, out.NextOffset)
	}
	if out.Binary {
		out.Note = "not searched: binary file (NUL bytes or a binary format's signature): " + p
	}
	return out, nil
}

// grepLineBytes is how much of a line the engine keeps for boundGrep to cut: as reads
// keep, and all of it when lines are never cut.
func grepLineBytes(lim Limits) int {
	if lim.MaxLineLength < 0 {
		return 0
	}
	return lineKeepBytes(lim)
}

// grepBound turns the engine's entries into the workspace's, one at a time: store names
// become paths relative to the workspace root (entries of one file share one string), the
// text of lines longer than [Limits.MaxLineLength] characters is cut and marked as reads
// do, and the entry that would take the rendered result past limit bytes (0: no limit)
// ends the result, keeping at least one, with a note.
type grepBound struct {
	w           *Workspace
	limit, size int
	n           int // entries let through
	last, shown string
	res         *GrepResult
	buf         []byte // an entry rendered, to count its bytes
}

// next rewrites e, and reports whether it belongs in the result.
func (b *grepBound) next(e *GrepEntry) bool {
	if e.Kind != search.KindSeparator {
		if e.Path != b.last {
			b.last, b.shown = e.Path, b.w.relName(e.Path)
		}
		e.Path = b.shown
	}
	maxLine := b.w.limits.MaxLineLength
	cut := false
	if maxLine >= 0 && (e.Kind == search.KindMatch || e.Kind == search.KindContext) &&
		(e.Len > 0 || utf8.RuneCountInString(e.Text) > maxLine) {
		full := e.Len
		if full == 0 {
			full = len(e.Text)
		}
		e.Text = string(cutRunes([]byte(e.Text), maxLine)) + cutMark(full)
		e.Len = 0
		cut = true
	}
	if b.limit > 0 {
		b.buf = search.AppendEntry(b.buf[:0], *e, b.res.LineNumbers)
		b.size += len(b.buf) + 1
	}
	if b.limit > 0 && b.size > b.limit && b.n > 0 {
		b.res.Truncated = true
		b.res.Note = fmt.Sprintf("output cut at %d bytes; ", b.limit) + "pass offset %d to see more, or narrow the search (path, glob, head_limit)"
		return false
	}
	if cut {
		b.res.CutLines++
	}
	b.n++
	return true
}
