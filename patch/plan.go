package patch

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs/internal/editmatch"
)

// Reader reads a file for [Patch.Plan]: its content, or exists false when there is no
// such file. Its errors are returned from Plan unchanged.
type Reader func(ctx context.Context, path string) (content string, exists bool, err error)

// Plan is what a patch does to each file it touches, computed before anything is written.
type Plan struct {
	Files []*FilePlan // one per path, in the order the patch first touches them
}

// FilePlan is the outcome for one path.
type FilePlan struct {
	Path    string   // as written in the patch
	Exists  bool     // the file existed when Plan read it
	Before  string   // its content then ("" when it did not exist)
	Delete  bool     // the file is to be deleted (or moved away)
	MovedTo string   // when it is moved away: where
	After   string   // otherwise, its new content
	Steps   []string // per hunk that matched text, how: exact, whitespace, indent, unicode, prefix
	Hunks   int      // hunks applied to it
}

// NotFoundError is a patch that updates, moves or deletes a file that does not exist.
type NotFoundError struct {
	Path string
	Line int // where the patch names it
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("patch line %d: no such file: %s", e.Line, e.Path)
}

// MatchError is a hunk whose old text was not found, or found in several places.
type MatchError struct {
	Path        string
	Hunk, Hunks int   // the hunk (from 1) and how many the file has
	Line        int   // where the hunk starts in the patch
	Ambiguous   bool  // found several times (Count, first at Lines)
	Count       int   // places it matched
	Lines       []int // where, in the file (from 1)
	Nearest     int   // not found: the file line most like the hunk's first line, 0 if none
	NearestText string
	Msg         string
}

func (e *MatchError) Error() string { return e.Msg }

// Plan reads each file the patch touches once through read, applies the patch to the
// contents in memory, and returns the outcome per path. Hunks are matched with the edit
// matcher's steps, each accepted only when it matches one place in the part of the file
// the hunk may apply to (after the hunk before it, for V4A and unified diffs; after the
// "@@ anchor" line when there is one). Where the exact text occurs several times, a V4A
// anchor picks the first after it and a line-number hint (unified "@@ -l", Roo
// ":start_line:") the one at that line; otherwise the hunk is ambiguous.
//
// Errors are *[MatchError], *[NotFoundError], or read's. Plan changes nothing.
func (p *Patch) Plan(ctx context.Context, read Reader) (*Plan, error) {
	pl := &Plan{}
	byPath := map[string]*FilePlan{}
	get := func(path string) (*FilePlan, error) {
		if fp := byPath[path]; fp != nil {
			return fp, nil
		}
		content, exists, err := read(ctx, path)
		if err != nil {
			return nil, err
		}
		fp := &FilePlan{Path: path, Exists: exists, Before: content, Delete: !exists, After: content}
		byPath[path] = fp
		pl.Files = append(pl.Files, fp)
		return fp, nil
	}
	for _, f := range p.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fp, err := get(f.Path)
		if err != nil {
			return nil, err
		}
		switch f.Op {
		case Add:
			fp.Delete, fp.After, fp.MovedTo = false, f.Content, ""
			continue
		case Delete:
			if fp.Delete {
				return nil, &NotFoundError{Path: f.Path, Line: f.Line}
			}
			fp.Delete, fp.After = true, ""
			continue
		}
		text := fp.After
		if fp.Delete {
			if !allCreate(f) {
				return nil, &NotFoundError{Path: f.Path, Line: f.Line}
			}
			text = ""
		}
		out, steps, err := applyHunks(f, text)
		if err != nil {
			return nil, err
		}
		fp.Steps = append(fp.Steps, steps...)
		fp.Hunks += len(f.Hunks)
		fp.Delete, fp.After = false, out
		if f.To != "" && f.To != f.Path {
			to, err := get(f.To)
			if err != nil {
				return nil, err
			}
			to.Delete, to.After = false, out
			fp.Delete, fp.After, fp.MovedTo = true, "", f.To
		}
	}
	return pl, nil
}

// allCreate reports whether every hunk of f has empty old text: SEARCH/REPLACE blocks
// with an empty SEARCH create a missing file.
func allCreate(f *File) bool {
	for _, h := range f.Hunks {
		if h.Old != "" || f.Ordered {
			return false
		}
	}
	return true
}

const bom = "\uFEFF"

// applyHunks applies the hunks of f to text and returns the result and each hunk's step.
func applyHunks(f *File, text string) (string, []string, error) {
	mark := ""
	if strings.HasPrefix(text, bom) {
		mark, text = bom, text[len(bom):]
	}
	crlf := editmatch.IsCRLF(text)
	eol := func(s string) string {
		if crlf {
			return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
		}
		return s
	}
	var steps []string
	cursor := 0
	// In V4A and unified diffs, chunks of only added lines without an anchor go to the end
	// of the file after the other hunks, as Codex applies them: they do not move the place
	// where the next hunk is looked for.
	var tail []string
	for k, h := range f.Hunks {
		fail := func(e *MatchError) error {
			e.Path, e.Hunk, e.Hunks, e.Line = f.Path, k+1, len(f.Hunks), h.Line
			return e
		}
		from := 0
		if f.Ordered {
			from = cursor
		}
		if h.Anchor != "" {
			at, ok := findAnchor(text, from, h.Anchor)
			if !ok {
				return "", nil, fail(anchorMissing(f.Path, text, h.Anchor, k, len(f.Hunks)))
			}
			from = at
		}
		if h.Old == "" {
			switch {
			case !f.Ordered && text != "":
				return "", nil, fail(&MatchError{Msg: fmt.Sprintf("%s: block %d of %d has an empty SEARCH part, which only creates a new or empty file; %s has content, so give the text to replace", f.Path, k+1, len(f.Hunks), f.Path)})
			case h.Anchor != "":
				ins := eol(h.New)
				text = text[:from] + ins + text[from:]
				cursor = from + len(ins)
			case h.AddAt > 0:
				at, ok := lineStart(text, h.AddAt)
				if !ok || at < cursor {
					return "", nil, fail(&MatchError{Msg: fmt.Sprintf("%s: hunk %d of %d adds lines at line %d, but the file has %d lines there; give a line of context so the place can be found",
						f.Path, k+1, len(f.Hunks), h.AddAt, lineCount(text))})
				}
				ins := eol(h.New)
				if at == len(text) && text != "" && !strings.HasSuffix(text, "\n") {
					ins = eol("\n") + ins
				}
				text = text[:at] + ins + text[at:]
				cursor = at + len(ins)
			case f.Ordered:
				tail = append(tail, h.New)
			default: // an empty SEARCH creating the file: later blocks may edit what it wrote
				text += eol(h.New)
			}
			continue
		}
		if !f.Ordered {
			h = dropBlankLead(h, text)
		}
		var (
			r     editmatch.Result
			err   error
			found bool
		)
		if h.EOF {
			// *** End of File anchors the hunk at the end: look there first, so that the
			// same lines earlier in the file do not make it ambiguous.
			if tail := tailStart(text, from, lineCount(h.Old)); tail > from {
				if tr, terr := editmatch.Find(text[tail:], h.Old, h.New); terr == nil {
					from, r, found = tail, tr, true
				}
			}
		}
		if !found {
			r, err = editmatch.Find(text[from:], h.Old, h.New)
			if err != nil {
				r, err = retry(text[from:], h, eol, err)
			}
		}
		if err != nil {
			var amb *editmatch.Ambiguous
			if errors.As(err, &amb) {
				return "", nil, fail(ambiguous(f.Path, text, from, amb, k, len(f.Hunks)))
			}
			return "", nil, fail(notFound(f.Path, text, h, k, len(f.Hunks), from > 0))
		}
		if region := text[from:]; h.EOF && strings.TrimRight(region[r.End:], "\r\n") != "" {
			return "", nil, fail(&MatchError{Msg: fmt.Sprintf("%s: hunk %d of %d is marked *** End of File, but its text is found at line %d, not at the end of the file",
				f.Path, k+1, len(f.Hunks), 1+strings.Count(text[:from+r.Start], "\n"))})
		}
		text = text[:from+r.Start] + r.New + text[from+r.End:]
		cursor = from + r.Start + len(r.New)
		steps = append(steps, string(r.Step))
	}
	for _, add := range tail {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += eol("\n")
		}
		text += eol(add)
	}
	return mark + text, steps, nil
}

// retry handles a first Find of h in region that failed with err: several exact
// occurrences that an anchor or a line hint tells apart ([pick]), or, as Codex allows, a
// trailing empty line that stands for the end of the file.
func retry(region string, h Hunk, eol func(string) string, err error) (editmatch.Result, error) {
	var amb *editmatch.Ambiguous
	if errors.As(err, &amb) && amb.Step == editmatch.Exact {
		if r, ok := pick(region, h, eol); ok {
			return r, nil
		}
	}
	if errors.Is(err, editmatch.ErrNotFound) && strings.HasSuffix(h.Old, "\n\n") {
		// Codex's leniency: a trailing empty line in a hunk may stand for the end of
		// the file rather than a blank line in it.
		return editmatch.Find(region, strings.TrimSuffix(h.Old, "\n"), strings.TrimSuffix(h.New, "\n"))
	}
	return editmatch.Result{}, err
}

// lineStart returns the offset in text where line n (from 1) starts; the end of text
// for the line after the last; false past that.
func lineStart(text string, n int) (int, bool) {
	at := 0
	for ; n > 1; n-- {
		j := strings.IndexByte(text[at:], '\n')
		if j < 0 {
			if at < len(text) && n == 2 {
				return len(text), true
			}
			return 0, false
		}
		at += j + 1
	}
	return at, true
}

// lineCount is the number of lines of s, a last line without "\n" included.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// tailStart returns the offset in text of the first of its last n lines at or after from,
// empty lines at the very end not counted; from when there are no more than n.
func tailStart(text string, from, n int) int {
	i := from + len(strings.TrimRight(text[from:], "\r\n"))
	for ; n > 0; n-- {
		j := strings.LastIndexByte(text[from:i], '\n')
		if j < 0 {
			return from
		}
		i = from + j
	}
	return i + 1
}

// pick chooses among several exact occurrences of h.Old in region: the first, after a V4A anchor; the one at the hint line otherwise.
func pick(region string, h Hunk, eol func(string) string) (editmatch.Result, bool) {
	old, new := h.Old, h.New
	if !strings.Contains(region, old) {
		old, new = eol(old), eol(new)
	}
	if h.Anchor != "" {
		i := strings.Index(region, old)
		if i < 0 {
			return editmatch.Result{}, false
		}
		return editmatch.Result{Start: i, End: i + len(old), New: new, Step: editmatch.Exact}, true
	}
	if h.Hint <= 0 {
		return editmatch.Result{}, false
	}
	start := 0
	for n := 1; n < h.Hint; n++ {
		j := strings.IndexByte(region[start:], '\n')
		if j < 0 {
			return editmatch.Result{}, false
		}
		start += j + 1
	}
	if !strings.HasPrefix(region[start:], old) {
		return editmatch.Result{}, false
	}
	return editmatch.Result{Start: start, End: start + len(old), New: new, Step: editmatch.Exact}, true
}

// findAnchor returns the offset of the line after the first line at or after from whose
// text, trimmed, is anchor (or equal to it but for typographic punctuation).
func findAnchor(text string, from int, anchor string) (int, bool) {
	want := strings.TrimSpace(anchor)
	for _, norm := range []func(string) string{strings.TrimSpace, func(s string) string { return strings.TrimSpace(editmatch.ASCIIPunct(s)) }} {
		w := norm(want)
		at := from
		for at < len(text) {
			end := strings.IndexByte(text[at:], '\n')
			next := len(text)
			if end >= 0 {
				next = at + end + 1
			}
			if norm(strings.TrimSuffix(text[at:next], "\n")) == w {
				return next, true
			}
			at = next
		}
	}
	return 0, false
}

// dropBlankLead drops the blank first line of a SEARCH block that text does not hold at
// the start of a line, as Aider does: models add one spuriously (Aider issue #25). Left
// in, the text would match from the end of the line before. A blank first line of the
// REPLACE part goes too, as the same mistake.
func dropBlankLead(h Hunk, text string) Hunk {
	first, rest, ok := strings.Cut(h.Old, "\n")
	if !ok || strings.TrimSpace(first) != "" || !strings.Contains(strings.TrimRight(rest, "\n"), "\n") {
		return h
	}
	if strings.HasPrefix(text, h.Old) || strings.Contains(text, "\n"+h.Old) {
		return h
	}
	h.Old = rest
	if nf, nrest, ok := strings.Cut(h.New, "\n"); ok && strings.TrimSpace(nf) == "" {
		h.New = nrest
	}
	return h
}
