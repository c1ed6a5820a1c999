package llmfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/llmfs/llmfs/internal/binfile"
	"github.com/llmfs/llmfs/internal/editmatch"
	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// Replacement is one exact-text replacement of an edit.
type Replacement struct {
	Old        string `json:"old_text"`
	New        string `json:"new_text"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
	// Count, when above 0, is how many times Old must occur; another count fails the edit
	// with [CodePatternNotUnique] before anything is written. Above 1 it implies
	// ReplaceAll. (A face whose tool takes an expected number of replacements, such as
	// gemini's replace, checks it so, and never has to take an edit back.)
	Count int `json:"count,omitempty"`
}

// EditResult is what [Workspace.Edit] returns.
type EditResult struct {
	Path         string // absolute path of the file
	Replacements int    // occurrences replaced, over all replacements
	Diff         string // a short unified diff of the change
	// Matched says how the old texts were found: MatchExact, or the loosest tolerant
	// step any of them needed (see editmatch.go).
	Matched Matched
}

// Edit replaces old with new in the file at p. Without replaceAll, old must occur exactly
// once. See [Workspace.EditMany].
func (w *Workspace) Edit(ctx context.Context, p, old, new string, replaceAll bool) (*EditResult, error) {
	return w.EditMany(ctx, p, []Replacement{{Old: old, New: new, ReplaceAll: replaceAll}})
}

// EditMany applies replacements to the file at p in order, each to the result of the one
// before, and writes the file once: all of them happen, or none.
//
// Each Old must be non-empty and differ from its New; without ReplaceAll it must occur
// exactly once. A missing Old is [CodePatternNotFound], with the most similar line of the
// file in the message; an Old found several times is [CodePatternNotUnique], with the count
// and the first line numbers. In a file whose lines end in CRLF, an Old and New written
// with "\n" match and are written with CRLF; a byte-order mark at the start stays.
//
// When the workspace requires reads, the file must have been read in this session
// ([CodeFileNotRead]) and be unchanged since ([CodeFileChanged]). The write is a
// compare-and-swap on the content the edit loaded, so no concurrent update is ever lost:
// if another writer got in between, a read-tracking session fails with [CodeFileChanged]
// and changes nothing; an untracked edit loads the file again and retries a few times.
// The result holds the number of replacements and a short unified diff.
func (w *Workspace) EditMany(ctx context.Context, p string, edits []Replacement) (*EditResult, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeEdit, func(w *Workspace) (*EditResult, error) { return w.EditMany(ctx, p, edits) })
	}
	if len(edits) == 0 {
		return nil, errorf(CodeInvalidArgument, p, "no edits given")
	}
	for i, e := range edits {
		if e.Old == "" {
			return nil, errorf(CodeInvalidArgument, p, "%sthe old text must not be empty; give the exact text to replace (to create or replace a whole file, write it)", editLabel(i, len(edits)))
		}
		if e.Old == e.New {
			return nil, errorf(CodeInvalidArgument, p, "%sthe old and new text are the same, so the edit would change nothing", editLabel(i, len(edits)))
		}
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpEdit, r); err != nil {
		return nil, err
	}
	if err := w.slashDir(ctx, r, false); err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		data, err := w.load(ctx, r)
		if err != nil {
			return nil, err
		}
		hash := store.Hash(data)
		if w.tracker != nil {
			known, err := w.readFirst(r.name, p)
			if err != nil {
				return nil, err
			}
			if !known.holds(data) {
				return nil, changedError(p, nil)
			}
		}
		text, total, matched, err := applyEdits(p, string(data), edits, w.limits.MaxEditBytes)
		if err != nil {
			return nil, err
		}
		done, err := w.admitFile(ctx, r, func(int64) int64 { return int64(len(text)) })
		if err != nil {
			return nil, err
		}
		_, err = w.store.WriteFile(ctx, r.name, strings.NewReader(text), store.WriteOptions{IfMatch: hash})
		done(err)
		if errors.Is(err, store.ErrChanged) {
			// Someone wrote the file between our load and our write. A session that
			// tracks reads promised to edit what it read, so it must look again; without
			// tracking, the edit applies to whatever the file now holds, as if it had
			// come a moment later.
			if w.tracker == nil && attempt < maxEditAttempts {
				continue
			}
			return nil, changedError(p, err)
		}
		if err != nil {
			return nil, storeError(p, err)
		}
		if w.tracker != nil {
			w.tracker.record(r.name, seenOf([]byte(text)))
		}
		abs := w.display(r.name)
		return &EditResult{
			Path:         abs,
			Replacements: total,
			Diff:         textdiff.Unified(w.rel(abs), string(data), text, 3, 60),
			Matched:      matched,
		}, nil
	}
}

// maxEditAttempts bounds how often an edit without read tracking retries after losing a
// race to another writer.
const maxEditAttempts = 8

const bom = "\uFEFF"

// applyEdits applies edits to text in order and returns the result and the number of
// replacements. A byte-order mark at the start of text stays there (and is ignored at the
// start of an old or new text, where a model may have copied it). In a file whose lines end
// in CRLF, an old and new text written with "\n" match and are written with CRLF; the
// reverse holds for LF files; text that matches as given is taken as given. A result over
// maxBytes is [CodeFileTooLarge], found from the counts before the result is built, so
// a replace_all that would blow a small file up costs no memory.
func applyEdits(p, text string, edits []Replacement, maxBytes int64) (string, int, Matched, error) {
	mark := ""
	if strings.HasPrefix(text, bom) {
		mark, text = bom, text[len(bom):]
	}
	i := strings.IndexByte(text, '\n')
	crlf := i > 0 && text[i-1] == '\r'
	total, matched := 0, MatchExact
	for k, e := range edits {
		if e.Count > 1 {
			e.ReplaceAll = true
		}
		old, new := e.Old, e.New
		if mark != "" && strings.HasPrefix(old, bom) && len(old) > len(bom) {
			old, new = old[len(bom):], strings.TrimPrefix(new, bom)
		}
		n := strings.Count(text, old)
		switch {
		case n == 0:
			// Try the old and new text with the file's own line endings.
			o, nw := toLF(old), toLF(new)
			if crlf {
				o, nw = toCRLF(old), toCRLF(new)
			}
			if o != old {
				if c := strings.Count(text, o); c > 0 {
					old, new, n = o, nw, c
				}
			}
		case crlf && strings.Count(old, "\n") == strings.Count(old, "\r\n"):
			// Matched as given, with no bare LF in the match: new lines get CRLF too.
			// (An old text with bare LFs matched a mixed file; new stays as given.)
			new = toCRLF(new)
		}
		label := editLabel(k, len(edits))
		if n == 0 {
			// Not there as given: try the tolerant steps (editmatch.go), one place only.
			t, step, ok, err := tolerantEdit(p, text, old, new, label)
			if err != nil {
				return "", 0, "", err
			}
			if ok {
				if e.Count > 1 {
					return "", 0, "", countMismatch(p, e.Count, 1, label)
				}
				if size := int64(len(mark) + len(t)); size > maxBytes {
					return "", 0, "", editTooLarge(p, label, size, maxBytes)
				}
				text, total, matched = t, total+1, looser(matched, step)
				continue
			}
		}
		switch {
		case n == 0:
			return "", 0, "", notFound(p, text, e.Old, label)
		case e.Count > 0 && n != e.Count:
			return "", 0, "", countMismatch(p, e.Count, n, label)
		case n > 1 && !e.ReplaceAll:
			return "", 0, "", notUnique(p, text, old, n, label)
		}
		if !e.ReplaceAll {
			// New that carries the indentation old left out replaces it (editmatch.WidenToIndent).
			old = editmatch.WidenToIndent(text, old, new)
		}
		// Indentation or quotes in new that break the file's own conventions (editmatch.Adopt).
		new, step := editmatch.Adopt(text, old, new)
		matched = looser(matched, step)
		replaced := 1
		if e.ReplaceAll {
			replaced = n
		}
		if size := int64(len(mark)+len(text)) + int64(replaced)*(int64(len(new))-int64(len(old))); size > maxBytes {
			return "", 0, "", editTooLarge(p, label, size, maxBytes)
		}
		if e.ReplaceAll {
			text = strings.ReplaceAll(text, old, new)
		} else {
			text = strings.Replace(text, old, new, 1)
		}
		total += n
	}
	return mark + text, total, matched, nil
}

// toCRLF gives every line break of s the form CRLF.
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(toLF(s), "\n", "\r\n")
}

// toLF gives every CRLF line break of s the form LF.
func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// load reads a whole regular text file for an edit.
func (w *Workspace) load(ctx context.Context, r resolved) ([]byte, error) {
	fi, err := w.store.Stat(ctx, r.name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &Error{Code: CodeFileNotFound, Path: r.arg, Err: err,
			Msg: "no such file: " + r.arg + " (an edit changes an existing file; to create one, write it)"}
	}
	if err != nil {
		return nil, storeError(r.arg, err)
	}
	if fi.IsDir() {
		return nil, errorf(CodeInvalidPath, r.arg, "is a directory: %s", r.arg)
	}
	if fi.Size() > w.limits.MaxEditBytes {
		return nil, errorf(CodeFileTooLarge, r.arg, "file is %d bytes, over the %d-byte edit limit: %s", fi.Size(), w.limits.MaxEditBytes, r.arg)
	}
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return nil, storeError(r.arg, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, w.limits.MaxEditBytes+1))
	if err != nil {
		return nil, storeError(r.arg, err)
	}
	if int64(len(data)) > w.limits.MaxEditBytes {
		return nil, errorf(CodeFileTooLarge, r.arg, "file is over the %d-byte edit limit: %s", w.limits.MaxEditBytes, r.arg)
	}
	if why := binfile.Why(data[:min(len(data), binarySniffLen)], true); why != "" {
		return nil, errorf(CodeBinaryFile, r.arg, "binary file (%s); it cannot be edited as text: %s", why, r.arg)
	}
	return data, nil
}

func editLabel(i, n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf("edit %d of %d: ", i+1, n)
}

// notUnique names how many times old occurs and on which lines, so the caller can widen it.
func notUnique(p, text, old string, n int, label string) error {
	const show = 5
	var lines []string
	at, line := 0, 1
	for i := 0; i < n && i < show; i++ {
		j := strings.Index(text[at:], old)
		line += strings.Count(text[at:at+j], "\n")
		lines = append(lines, fmt.Sprint(line))
		line += strings.Count(old, "\n")
		at += j + len(old)
	}
	where := "at lines " + strings.Join(lines, ", ")
	if n > show {
		where = "first at lines " + strings.Join(lines, ", ")
	}
	return errorf(CodePatternNotUnique, p,
		"%sthe old text occurs %d times in %s (%s). Include more surrounding lines to make it unique, or set replace_all to replace every occurrence.",
		label, n, p, where)
}

// countMismatch refuses an edit whose old text occurs n times where the caller expected
// want ([Replacement.Count]).
func countMismatch(p string, want, n int, label string) error {
	return errorf(CodePatternNotUnique, p,
		"%sexpected %d replacements but the old text occurs %d times in %s; nothing was changed",
		label, want, n, p)
}

// notFound says the old text is absent and points to the line of the file most like the
// first non-blank line of old, if one is close enough to be the intended one.
func notFound(p, text, old, label string) error {
	// The tolerant steps forgive some differences (editmatch.go): the message says which,
	// so that it never tells the model to fix what was forgiven.
	msg := fmt.Sprintf("%sthe old text was not found in %s, even with differences in indentation, trailing whitespace, quotes and copied line numbers forgiven. Copy it from the file exactly.", label, p)
	first := ""
	for l := range strings.SplitSeq(old, "\n") {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimRight(l, "\r")
			break
		}
	}
	if first == "" {
		return errorf(CodePatternNotFound, p, "%s", msg)
	}
	n, line, score := mostSimilarLine(text, first)
	switch {
	case n == 0:
		msg += " No line of the file is similar to its first line; read the file to see its current content."
	case line == first:
		msg += fmt.Sprintf(" Line %d matches its first line exactly, so a later line differs; read the file again from line %d and copy the text exactly.", n, n)
	case strings.TrimSpace(line) == strings.TrimSpace(first):
		msg += fmt.Sprintf(" Line %d matches its first line but for indentation, which is forgiven, so a later line differs; read the file again from line %d and copy the text exactly.", n, n)
	case score == 1:
		msg += fmt.Sprintf(" The most similar line is %d, which differs from its first line only in whitespace: %q.", n, clip(line))
	default:
		msg += fmt.Sprintf(" The most similar line is %d: %q.", n, clip(line))
	}
	return errorf(CodePatternNotFound, p, "%s", msg)
}

// similarEnough is the least similarity (see [similarity]) for a line to be suggested.
const similarEnough = 0.6

// mostSimilarLine returns the number, text and similarity of the line of text most similar
// to want, or 0 when none reaches [similarEnough]. An exact match wins at once. It is linear
// in the size of text: each line costs one pass over its bytes, and lines much shorter or
// longer than want are skipped by their length alone, since they cannot reach the threshold.
func mostSimilarLine(text, want string) (int, string, float64) {
	wb := newBigramSet(want)
	wlen := len(strings.TrimSpace(want))
	var (
		bestN     int
		bestLine  string
		bestScore float64
		n         int
	)
	for l := range strings.SplitSeq(text, "\n") {
		n++
		l = strings.TrimRight(l, "\r")
		if l == want {
			return n, l, 1
		}
		tl := len(strings.TrimSpace(l))
		if tl == 0 || tl*3 < wlen || tl > wlen*3 {
			continue
		}
		if sc := wb.similarity(l); sc > bestScore {
			bestN, bestLine, bestScore = n, l, sc
		}
	}
	if bestScore < similarEnough {
		return 0, "", 0
	}
	return bestN, bestLine, bestScore
}

// bigramSet holds the byte bigrams of a text, whitespace left out, as counts.
type bigramSet struct {
	text  string
	count [1 << 16]uint16
	total int
	used  [1 << 16]uint16 // scratch for similarity
	seen  []uint16        // entries of used to clear
}

func newBigramSet(s string) *bigramSet {
	b := &bigramSet{text: s}
	forBigrams(s, func(k uint16) {
		if b.count[k] < 1<<16-1 {
			b.count[k]++
		}
		b.total++
	})
	return b
}

// forBigrams calls f with each pair of consecutive non-whitespace bytes of s.
func forBigrams(s string, f func(uint16)) {
	prev := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\r', '\n', '\v', '\f':
			continue
		}
		if prev >= 0 {
			f(uint16(prev)<<8 | uint16(c))
		}
		prev = int(c)
	}
}

// similarity is 1 for a text equal to b's but for whitespace, and otherwise the Dice
// coefficient of their bigrams, 2|A∩B| / (|A|+|B|) counting repeats, at most 0.99.
func (b *bigramSet) similarity(s string) float64 {
	common, total := 0, 0
	forBigrams(s, func(k uint16) {
		total++
		if b.used[k] < b.count[k] {
			if b.used[k] == 0 {
				b.seen = append(b.seen, k)
			}
			b.used[k]++
			common++
		}
	})
	for _, k := range b.seen {
		b.used[k] = 0
	}
	b.seen = b.seen[:0]
	if common == total && common == b.total {
		// Equal bigrams (or none, for one-character texts): equal but for whitespace?
		if squash(s) == squash(b.text) {
			return 1
		}
		if total == 0 {
			return 0
		}
	}
	return min(2*float64(common)/float64(total+b.total), 0.99)
}

// squash removes all whitespace, for a lenient comparison.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// clip shortens a line quoted in a message.
func clip(s string) string {
	const maxRunes = 200
	if utf8.RuneCountInString(s) <= maxRunes {
		return s
	}
	return string([]rune(s)[:maxRunes]) + "…"
}

// editTooLarge refuses an edit whose result would be over the edit limit.
func editTooLarge(p, label string, size, maxBytes int64) error {
	return errorf(CodeFileTooLarge, p, "%sthe edit would make the file %d bytes, over the %d-byte edit limit; nothing was written: %s", label, size, maxBytes, p)
}
