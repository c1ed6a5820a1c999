package editmatch

import (
	"slices"
	"strings"
)

// replace renders new for the window of len(old.lines) lines starting at line w, matched
// at step st. The error is [ErrIndentation] when new's indentation cannot be told.
//
// Each line keeps a line ending of the file's: a line of new that stands for a line of
// the window (the same line kept, or the one it rewrites) takes that line's ending, any
// other the file's most common one. A file with both CRLF and LF lines keeps both.
func (f *file) replace(w int, st Step, old, new model) (Result, error) {
	k := len(old.lines)
	last := f.lines[w+k-1]
	r := Result{Start: f.lines[w].start, End: last.end, Step: st}
	if old.partial {
		fl := f.content(w + k - 1)
		r.End = last.start + len(leading(fl)) + len(strings.TrimLeft(old.lines[k-1], " \t"))
	}
	lines, src, err := f.render(w, st, old, new)
	if err != nil {
		return Result{}, err
	}
	dominant := f.dominantEOL()
	ending := func(i int) string {
		if src[i] >= 0 {
			if e := f.ending(src[i]); e != "" {
				return e
			}
		}
		return dominant
	}
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i < len(lines)-1 {
			b.WriteString(ending(i))
		}
	}
	if old.endsNL {
		r.End = last.next
		if new.endsNL && last.next > last.end {
			e := f.ending(w + k - 1)
			if n := len(lines) - 1; n >= 0 && src[n] >= 0 && f.ending(src[n]) != "" {
				e = f.ending(src[n])
			}
			b.WriteString(e)
		}
	} else if new.endsNL {
		b.WriteString(dominant)
	}
	r.New = b.String()
	return r, nil
}

// ending is the line ending of file line i: "\r\n", "\n", or "" for a last line without one.
func (f *file) ending(i int) string { return f.text[f.lines[i].end:f.lines[i].next] }

// dominantEOL is the file's most common line ending, CRLF on a tie only when its first
// line ends so.
func (f *file) dominantEOL() string {
	crlf := strings.Count(f.text, "\r\n")
	lf := strings.Count(f.text, "\n") - crlf
	if crlf > lf || (crlf == lf && f.crlf) {
		return "\r\n"
	}
	return "\n"
}

// render gives new's lines the conventions of the window they replace: lines the edit
// leaves as they were keep the file's bytes; whitespace or punctuation the model added
// where the file has none is dropped; at the indent step every line is re-indented.
//
// It also returns, for each new line, the file line it stands for (or -1): the line
// it pairs with by [correspond], else the one line of the window it equals.
func (f *file) render(w int, st Step, old, new model) ([]string, []int, error) {
	norm := lineSteps[0].norm
	if st == Unicode {
		norm = func(s string) string { return trimRight(ASCIIPunct(s)) }
	}
	var ind *reindenter
	if st == Indent || st == Unicode {
		ind = f.newReindenter(w, old, new)
	}
	// Old lines as the step sees them, indentation in the file's form (the window
	// line's own), mapped to the file's lines: a new line equal to one of them is a
	// line the edit keeps.
	same := map[string]int{}
	keys := make([]string, len(old.lines))
	for j, l := range old.lines {
		if ind != nil {
			l = leading(f.content(w+j)) + strings.TrimLeft(l, " \t")
			if strings.TrimSpace(l) == "" {
				l = ""
			}
		}
		key := norm(l)
		if old.partial && j == len(old.lines)-1 {
			// Only the start of the file's line: no new line stands for all of it.
			keys[j] = "\x00"
			continue
		}
		keys[j] = key
		if _, dup := same[key]; dup {
			same[key] = -1
		} else {
			same[key] = w + j
		}
	}
	modelTrailing := false
	var window strings.Builder
	for j, l := range old.lines {
		fl := f.content(w + j)
		window.WriteString(fl)
		if trimRight(l) != l && trimRight(fl) == fl {
			modelTrailing = true
		}
	}
	// The typographic characters old has where the file's window has none: the model
	// made them, so they go from new too; others in new (an em dash in a new comment)
	// are meant.
	var made []string
	for _, l := range old.lines {
		for _, r := range l {
			if c := string(r); r >= 0x80 && ASCIIPunct(c) != c && !strings.Contains(window.String(), c) && !slices.Contains(made, c) {
				made = append(made, c, ASCIIPunct(c))
			}
		}
	}
	modelPunct := strings.NewReplacer(made...)
	out := make([]string, len(new.lines))
	src := make([]int, len(new.lines))
	corr := correspond(old.lines, new.lines)
	for i, l := range new.lines {
		a := l
		if ind != nil {
			var ok bool
			if a, ok = ind.apply(i, l); !ok {
				return nil, nil, ErrIndentation
			}
		}
		src[i] = -1
		if j := corr[i]; j >= 0 {
			src[i] = w + j
			if keys[j] == norm(a) {
				// The line it pairs with, kept (even when the window has its like twice).
				out[i] = f.content(w + j)
				continue
			}
		}
		if fi, ok := same[norm(a)]; ok && fi >= 0 {
			out[i] = f.content(fi)
			if src[i] < 0 {
				src[i] = fi
			}
			continue
		}
		if modelTrailing {
			a = trimRight(a)
		}
		if len(made) > 0 {
			a = modelPunct.Replace(a)
		}
		out[i] = a
	}
	return out, src, nil
}
