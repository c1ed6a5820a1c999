// Package editmatch finds the text an edit means to replace when the model did not copy it
// exactly, and renders the replacement in the file's own conventions.
//
// The steps, tried in order, each looser than the one before:
//
//   - exact: the old text occurs as given (or with the file's line endings);
//   - whitespace: a window of whole lines equal to old's lines but for trailing whitespace
//     (and a final newline the file lacks);
//   - indent: a window equal but for leading and trailing whitespace; the replacement is
//     re-indented to the file's indentation, tabs or spaces, keeping its relative depth
//     by one rule that holds at every level of old's lines; when none does, each line
//     keeps the indentation of the file line it stands for, or, where that would be a
//     guess (tabs against spaces), the edit is refused with [ErrIndentation]. A
//     replacement already written at the file's indentation is taken as written;
//   - unicode: as indent, with typographic quotes, dashes, ellipses and unusual spaces
//     read as their ASCII forms;
//   - prefix: old's lines carry line-number prefixes copied from a numbered read (cat -n
//     style "     7\t", "     7→", or "L7: "), numbered consecutively; they are stripped
//     from old (and from new's lines that carry one) and the steps above run again.
//
// The last line of an old text without a final newline may end inside the file's line.
// Each replaced line keeps a line ending of the file's (the one of the line it stands
// for), so a file with both CRLF and LF lines keeps both.
//
// A step is accepted only when it matches exactly one place, or when a copied line
// number names one of several; several matches stop the search
// with an [*Ambiguous] error, since a looser step would match them too. There is no
// similarity or edit-distance guessing: when no step matches, the result is [ErrNotFound].
package editmatch

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Step names how an old text was matched.
type Step string

// The steps, from strict to loose.
const (
	Exact      Step = "exact"
	Whitespace Step = "whitespace"
	Indent     Step = "indent"
	Unicode    Step = "unicode"
	Prefix     Step = "prefix"
)

// Rank orders steps from strict (0) to loose; an unknown step ranks as exact.
func (s Step) Rank() int {
	switch s {
	case Whitespace:
		return 1
	case Indent:
		return 2
	case Unicode:
		return 3
	case Prefix:
		return 4
	}
	return 0
}

// ErrNotFound says no step found the old text.
var ErrNotFound = errors.New("old text not found")

// ErrIndentation says old matched a window but for indentation that differs from the
// file's by no one rule (tabs on one side, spaces on the other, some levels off), so
// where new's lines go could only be guessed. It wraps [ErrNotFound].
var ErrIndentation = fmt.Errorf("%w: its indentation differs from the file's", ErrNotFound)

// Ambiguous says the old text matched several places at Step, first at Lines (1-based).
type Ambiguous struct {
	Step  Step
	Count int
	Lines []int
}

func (a *Ambiguous) Error() string {
	return fmt.Sprintf("old text matches %d places (%s)", a.Count, a.Step)
}

// Result is one match: text[Start:End] is to be replaced by New.
type Result struct {
	Start, End int
	New        string
	Step       Step
}

// Apply returns text with the match replaced.
func (r Result) Apply(text string) string { return text[:r.Start] + r.New + text[r.End:] }

// maxAmbiguousLines bounds the line numbers an [*Ambiguous] carries.
const maxAmbiguousLines = 5

// Find locates old in text, which must not start with a byte-order mark, and returns the
// one place it matches with new rendered for that place. The exact step counts
// occurrences of old (or of old with text's line endings); the others follow the package
// doc. Errors are [ErrNotFound] and [*Ambiguous].
func Find(text, old, new string) (Result, error) {
	if old == "" {
		return Result{}, ErrNotFound
	}
	crlf := IsCRLF(text)
	for _, o := range exactForms(old, new, crlf) {
		switch n := strings.Count(text, o.old); {
		case n == 1:
			i := strings.Index(text, o.old)
			if t, ok := indentedWithin(text, i, old, new); ok {
				return t, nil
			}
			if w := WidenToIndent(text, o.old, o.new); w != o.old {
				i -= len(w) - len(o.old)
				o.old = w
			}
			r := Result{Start: i, End: i + len(o.old), Step: Exact}
			r.New, r.Step = Adopt(text, o.old, o.new)
			return r, nil
		case n > 1:
			return Result{}, ambiguousExact(text, o.old, n)
		}
	}
	return Tolerant(text, old, new)
}

// indentedWithin catches the exact match that is really a shifted indentation: old (or
// new) is several lines, old starts with whitespace and is found after some more whitespace at the start
// of a line ("  if x:" inside "    if x:"). Replacing it as found would indent only its
// first line; as an indent-step match of whole lines, new is re-indented throughout.
func indentedWithin(text string, i int, old, new string) (Result, bool) {
	ls := strings.LastIndexByte(text[:i], '\n') + 1
	if ls == i || strings.TrimLeft(text[ls:i], " \t") != "" ||
		!(multiline(old) || multiline(new)) ||
		(old[0] != ' ' && old[0] != '\t') {
		return Result{}, false
	}
	f := newFile(text)
	m, nw := splitModel(old), splitModel(new)
	r, err := f.lineSteps(m, nw, "", 0)
	if err != nil || r.Start != ls || r.Step != Indent {
		return Result{}, false
	}
	return r, true
}

func multiline(s string) bool { return strings.Contains(strings.TrimSuffix(s, "\n"), "\n") }

type form struct{ old, new string }

// exactForms is old as given, then with the file's line endings.
func exactForms(old, new string, crlf bool) []form {
	out := []form{{old, new}}
	o, n := toLF(old), toLF(new)
	if crlf {
		o, n = toCRLF(old), toCRLF(new)
	} else if o == old {
		return out
	}
	if o != old {
		out = append(out, form{o, n})
	} else if crlf {
		out[0].new = toCRLF(new)
	}
	return out
}

func ambiguousExact(text, old string, n int) error {
	a := &Ambiguous{Step: Exact, Count: n}
	at := 0
	for len(a.Lines) < maxAmbiguousLines {
		j := strings.Index(text[at:], old)
		if j < 0 {
			break
		}
		a.Lines = append(a.Lines, 1+strings.Count(text[:at+j], "\n"))
		at += j + len(old)
	}
	return a
}

// Tolerant runs the steps after exact (see the package doc) for old in text.
func Tolerant(text, old, new string) (Result, error) {
	f := newFile(text)
	m := splitModel(old)
	nw := splitModel(new)
	// ErrIndentation (which wraps ErrNotFound) stops here too: the window was found.
	if r, err := f.lineSteps(m, nw, "", 0); err != ErrNotFound {
		return r, err
	}
	hint, _, _, _ := numberPrefix(m.lines[0])
	so, styles, ok := stripPrefixes(m.lines)
	if !ok {
		return Result{}, ErrNotFound
	}
	m.lines = so
	nw.lines = stripSomePrefixes(nw.lines, styles)
	// The stripped text may now match exactly.
	stripped := strings.Join(m.lines, "\n")
	if m.endsNL {
		stripped += "\n"
	}
	newText := strings.Join(nw.lines, "\n")
	if nw.endsNL {
		newText += "\n"
	}
	// A numbered line was a whole line of the read, so only a match at a line's start counts.
	for _, o := range exactForms(stripped, newText, f.crlf) {
		switch at := atLineStarts(text, o.old); {
		case len(at) == 1:
			i := at[0]
			return Result{Start: i, End: i + len(o.old), New: o.new, Step: Prefix}, nil
		case len(at) > 1:
			// The copied number names the line: it picks one of equal places.
			if i, ok := atLine(text, at, hint); ok {
				return Result{Start: i, End: i + len(o.old), New: o.new, Step: Prefix}, nil
			}
			a := &Ambiguous{Step: Prefix, Count: len(at)}
			for _, i := range at[:min(len(at), maxAmbiguousLines)] {
				a.Lines = append(a.Lines, 1+strings.Count(text[:i], "\n"))
			}
			return Result{}, a
		}
	}
	return f.lineSteps(m, nw, Prefix, hint)
}

// atLine returns the offset among at (offsets of line starts in text, ascending) that
// starts line n (from 1).
func atLine(text string, at []int, n int) (int, bool) {
	if n <= 0 {
		return 0, false
	}
	line, from := 1, 0
	for _, i := range at {
		line += strings.Count(text[from:i], "\n")
		from = i
		if line == n {
			return i, true
		}
	}
	return 0, false
}

// atLineStarts returns the offsets in text where s occurs at the start of a line.
func atLineStarts(text, s string) []int {
	var at []int
	for i := 0; i <= len(text); {
		j := strings.Index(text[i:], s)
		if j < 0 {
			break
		}
		if k := i + j; k == 0 || text[k-1] == '\n' {
			at = append(at, k)
		}
		i += j + 1
	}
	return at
}

// model is an old or new text split into lines without their endings.
type model struct {
	lines  []string
	endsNL bool
	// partial says old's last line matched only the start of a file line (see midLine).
	partial bool
}

// midLine reports whether old may end inside a line: it has several lines, no final
// newline, and a last line with text.
func (m model) midLine() bool {
	return len(m.lines) > 1 && !m.endsNL && strings.TrimSpace(m.lines[len(m.lines)-1]) != ""
}

func splitModel(s string) model {
	m := model{endsNL: strings.HasSuffix(s, "\n")}
	s = strings.TrimSuffix(s, "\n")
	for l := range strings.SplitSeq(s, "\n") {
		m.lines = append(m.lines, strings.TrimSuffix(l, "\r"))
	}
	return m
}

// line is one line of the file: content text[start:end], its ending up to next.
type line struct{ start, end, next int }

type file struct {
	text  string
	lines []line
	crlf  bool
}

func newFile(text string) *file {
	f := &file{text: text, crlf: IsCRLF(text)}
	for at := 0; at < len(text); {
		j := strings.IndexByte(text[at:], '\n')
		if j < 0 {
			f.lines = append(f.lines, line{at, len(text), len(text)})
			break
		}
		end := at + j
		if end > at && text[end-1] == '\r' {
			end--
		}
		f.lines = append(f.lines, line{at, end, at + j + 1})
		at += j + 1
	}
	return f
}

func (f *file) content(i int) string { return f.text[f.lines[i].start:f.lines[i].end] }

// normalizers of the line steps; each is looser than the one before.
var lineSteps = []struct {
	step Step
	norm func(string) string
}{
	{Whitespace, trimRight},
	{Indent, strings.TrimSpace},
	{Unicode, func(s string) string { return strings.TrimSpace(ASCIIPunct(s)) }},
}

// splitsWord reports whether a match ending with head, followed in the file by rest,
// would end inside a word: "foo" must not match the start of "foobar".
func splitsWord(head, rest string) bool {
	last, _ := utf8.DecodeLastRuneInString(head)
	next, _ := utf8.DecodeRuneInString(rest)
	return rest != "" && isWordRune(last) && isWordRune(next)
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func trimRight(s string) string { return strings.TrimRight(s, " \t\r\f\v") }

// lineSteps tries the line-window steps; as, when not empty, is the step to report
// instead. hint, when positive, is the line (from 1) a copied line number names: of
// several equal windows, the one starting there is taken.
func (f *file) lineSteps(old, new model, as Step, hint int) (Result, error) {
	for _, st := range lineSteps {
		old.partial = false
		norm := make([]string, len(old.lines))
		blank := true
		for i, l := range old.lines {
			norm[i] = st.norm(l)
			if norm[i] != "" {
				blank = false
			}
		}
		if blank {
			return Result{}, ErrNotFound
		}
		hits, count := f.windows(norm, st.norm, nil)
		if count == 0 && old.midLine() && st.step != Unicode {
			// Old ends inside a line: its last line need only start the file's line.
			k := len(old.lines)
			body := strings.TrimLeft(old.lines[k-1], " \t")
			hits, count = f.windows(norm[:k-1], st.norm, func(w int) bool {
				if w+k-1 >= len(f.lines) {
					return false
				}
				fl := f.content(w + k - 1)
				if st.step == Whitespace && leading(fl) != leading(old.lines[k-1]) {
					return false
				}
				rest, ok := strings.CutPrefix(strings.TrimLeft(fl, " \t"), body)
				return ok && !splitsWord(body, rest)
			})
			old.partial = true
		}
		if count == 0 {
			continue
		}
		step := st.step
		if as != "" {
			step = as
		}
		if count > 1 && !old.partial && f.windowAt(hint-1, norm, st.norm) {
			return f.replace(hint-1, st.step, old, new)
		}
		if count > 1 && st.step == Indent && count <= len(hits) {
			// Several windows equal but for indentation: one where old's lines keep their
			// relative depths is the one a shifted copy came from.
			var same []int
			for _, h := range hits {
				if f.newReindenter(h, old, new).consistent {
					same = append(same, h)
				}
			}
			if len(same) == 1 {
				return f.replace(same[0], st.step, old, new)
			}
		}
		if count > 1 {
			a := &Ambiguous{Step: step, Count: count}
			for _, h := range hits {
				a.Lines = append(a.Lines, h+1)
			}
			return Result{}, a
		}
		return f.replace(hits[0], st.step, old, new)
	}
	return Result{}, ErrNotFound
}

// windowAt reports whether the window of the file starting at line index w has the
// normalized lines want.
func (f *file) windowAt(w int, want []string, norm func(string) string) bool {
	if w < 0 || w+len(want) > len(f.lines) {
		return false
	}
	for j, l := range want {
		if norm(f.content(w+j)) != l {
			return false
		}
	}
	return true
}

// windows returns the first line indexes (at most maxAmbiguousLines) of the windows of
// the file whose normalized lines equal want (and that accept, when not nil, takes), and
// how many there are. It is Knuth-Morris-Pratt over lines, so linear in the file and want
// whatever they hold.
func (f *file) windows(want []string, norm func(string) string, accept func(w int) bool) ([]int, int) {
	k := len(want)
	if k > len(f.lines) || k == 0 {
		return nil, 0
	}
	fail := make([]int, k)
	for i, j := 1, 0; i < k; i++ {
		for j > 0 && want[i] != want[j] {
			j = fail[j-1]
		}
		if want[i] == want[j] {
			j++
		}
		fail[i] = j
	}
	var hits []int
	count := 0
	j := 0
	for i := range f.lines {
		l := norm(f.content(i))
		for j > 0 && l != want[j] {
			j = fail[j-1]
		}
		if l == want[j] {
			j++
		}
		if j == k {
			if accept == nil || accept(i-k+1) {
				count++
				if len(hits) < maxAmbiguousLines {
					hits = append(hits, i-k+1)
				}
			}
			j = fail[j-1]
		}
	}
	return hits, count
}

// IsCRLF reports whether text's first line ends in CRLF.
func IsCRLF(text string) bool {
	i := strings.IndexByte(text, '\n')
	return i > 0 && text[i-1] == '\r'
}

func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(toLF(s), "\n", "\r\n")
}

func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
