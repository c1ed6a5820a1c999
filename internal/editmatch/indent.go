package editmatch

import (
	"strings"
)

// modelTab is the width given to a tab in a model's text when its depth has to be
// compared with spaces.
const modelTab = 4

// reindenter moves a model's lines to the file's indentation. Depths are model columns
// (a tab counting [modelTab]) on the model's side and file units on the file's, a unit
// being a tab in a window indented with tabs and a space otherwise.
//
// When the model's old lines sit at their file lines' depths by one rule (a shift, or a
// consistent tabs-for-spaces ratio), every new line follows that rule: a line d columns
// deeper than old's first non-blank line goes d*num/den units deeper than the file line
// that matched it. When they do not (the model got some depths of its old text wrong), a
// new line at the depth of an old line takes that line's file depth; one at a depth the
// file window itself uses stays there; any other keeps its offset from the nearest
// shallower old line.
type reindenter struct {
	tabs       bool        // the file's window is indented with tabs
	base       int         // model columns of old's first non-blank line
	fileBase   int         // file units of the line it matched
	num, den   int         // file units per model column
	consistent bool        // the old lines follow base/fileBase and num/den
	pairs      map[int]int // model depth of an old line -> its file depth (-1: several)
	fileDepths map[int]bool
	sameKind   bool  // tabs on both sides or spaces on both
	verbatim   bool  // new already has the file's indentation (see [file.carriesFileIndent])
	corr       []int // new line -> the old line it stands for, or -1 (see [correspond])
	oldDepth   []int // model depth of each old line (-1: blank here or in the file)
	winDepth   []int // file depth of each window line (-1: blank here or in old)
}

func (f *file) newReindenter(w int, old, new model) *reindenter {
	r := &reindenter{num: 1, den: 1, pairs: map[int]int{}, fileDepths: map[int]bool{}}
	for j := range old.lines {
		fl := f.content(w + j)
		if strings.TrimSpace(fl) == "" {
			continue
		}
		if strings.HasPrefix(leading(fl), "\t") {
			r.tabs = true
		}
	}
	if !r.tabs && !f.windowIndented(w, len(old.lines)) && indentStyle(f.text) == '\t' {
		// The window gives no indentation to go by (its lines start at the margin): the
		// file's own style decides.
		r.tabs = true
	}
	first := -1
	for j, l := range old.lines {
		if strings.TrimSpace(l) != "" {
			first = j
			break
		}
	}
	r.base = columns(leading(old.lines[first]))
	r.fileBase = r.units(leading(f.content(w + first)))
	for j, l := range old.lines {
		fl := f.content(w + j)
		if strings.TrimSpace(l) == "" || strings.TrimSpace(fl) == "" {
			continue
		}
		m, u := columns(leading(l)), r.units(leading(fl))
		r.fileDepths[u] = true
		if prev, ok := r.pairs[m]; ok && prev != u {
			r.pairs[m] = -1
		} else {
			r.pairs[m] = u
		}
	}

	modelTabs := false
	for _, l := range append(append([]string{}, old.lines...), new.lines...) {
		if strings.TrimSpace(l) != "" && strings.HasPrefix(leading(l), "\t") {
			modelTabs = true
		}
	}
	r.corr = correspond(old.lines, new.lines)
	for j, l := range old.lines {
		m, u := -1, -1
		if fl := f.content(w + j); strings.TrimSpace(l) != "" && strings.TrimSpace(fl) != "" {
			m, u = columns(leading(l)), r.units(leading(fl))
		}
		r.oldDepth, r.winDepth = append(r.oldDepth, m), append(r.winDepth, u)
	}
	r.sameKind = r.tabs == modelTabs
	r.verbatim = f.carriesFileIndent(w, old, new, r.corr)
	if r.sameKind {
		if r.tabs {
			r.den = modelTab
		}
		r.consistent = r.follows()
		return r
	}
	// Tabs on one side, spaces on the other: calibrate on the matched lines, where every
	// pair of a model depth and a file depth gives the same ratio when the model re-tabbed
	// the block consistently.
	calibrated := false
	for m, u := range r.pairs {
		if m == r.base || u < 0 {
			continue
		}
		n, d := reduce(u-r.fileBase, m-r.base)
		if !calibrated && n > 0 {
			r.num, r.den, calibrated = n, d, true
		}
	}
	if calibrated && r.follows() {
		r.consistent = true
		return r
	}
	// No usable calibration: guess the unit of the side with spaces.
	switch {
	case r.tabs:
		r.num, r.den = 1, spaceUnit(strings.Join(old.lines, "\n"), strings.Join(new.lines, "\n"))
	default:
		r.num, r.den = spaceUnit(f.text), modelTab
	}
	r.consistent = r.follows()
	return r
}

// follows reports whether every old line sits at the file depth the linear rule gives.
func (r *reindenter) follows() bool {
	for m, u := range r.pairs {
		if u < 0 {
			return false
		}
		d := (m - r.base) * r.num
		if d%r.den != 0 || r.fileBase+d/r.den != u {
			return false
		}
	}
	return true
}

// depth is the file depth, and the spaces after it, for new line i at model depth m; ok
// is false when old's depths disagree with the file's and nothing but a guess places the
// line.
func (r *reindenter) depth(i, m int) (int, int, bool) {
	if r.consistent {
		q, rem := floorDiv((m-r.base)*r.num, r.den)
		return r.fileBase + q, rem, true
	}
	// Old's lines are not where the file has them by any one rule: the file's own
	// lines decide. A new line at the depth of the old line it stands for keeps that
	// file line's indentation ("line2" for "    line2" stays at 4, not at line 1's 2).
	j := -1
	if i >= 0 && i < len(r.corr) {
		j = r.corr[i]
	}
	if j >= 0 && r.oldDepth[j] == m && r.winDepth[j] >= 0 {
		return r.winDepth[j], 0, true
	}
	if u, ok := r.pairs[m]; ok && u >= 0 {
		return u, 0, true
	}
	if r.sameKind && (m*r.num)%r.den == 0 && r.fileDepths[m*r.num/r.den] {
		return m * r.num / r.den, 0, true
	}
	if !r.sameKind {
		// Tabs on one side and spaces on the other with no one ratio between them: the
		// depth would be a guess.
		return 0, 0, false
	}
	if j >= 0 && r.winDepth[j] >= 0 {
		q, rem := floorDiv((m-r.oldDepth[j])*r.num, r.den)
		return r.winDepth[j] + q, rem, true
	}
	// Offset from the nearest shallower old line (or, below them all, the shallowest).
	below, above := -1, -1
	for k, u := range r.pairs {
		switch {
		case u < 0:
		case k <= m && k > below:
			below = k
		case k > m && (above < 0 || k < above):
			above = k
		}
	}
	best, found := below, below >= 0
	if !found && above >= 0 {
		best, found = above, true
	}
	if found {
		q, rem := floorDiv((m-best)*r.num, r.den)
		return r.pairs[best] + q, rem, true
	}
	q, rem := floorDiv((m-r.base)*r.num, r.den)
	return r.fileBase + q, rem, true
}

// units is the depth of a file indentation in file units.
func (r *reindenter) units(ind string) int {
	if r.tabs {
		return strings.Count(ind, "\t")
	}
	return columns(ind)
}

// apply re-indents new line i (l); a blank line becomes empty. It reports false when
// the line's depth cannot be told (see [reindenter.depth]).
func (r *reindenter) apply(i int, l string) (string, bool) {
	body := strings.TrimLeft(l, " \t")
	if strings.TrimSpace(body) == "" {
		return "", true
	}
	if r.verbatim {
		return l, true
	}
	n, rem, ok := r.depth(i, columns(l[:len(l)-len(body)]))
	if !ok {
		return "", false
	}
	if n < 0 {
		n, rem = 0, 0
	}
	if r.tabs {
		// A part of a unit (alignment) stays as spaces, in the model's columns.
		return strings.Repeat("\t", n) + strings.Repeat(" ", rem/max(r.num, 1)) + body, true
	}
	// Alignment past a level (" * " under "/**" after a tab) stays too.
	return strings.Repeat(" ", n+rem/max(r.num, 1)) + body, true
}

func leading(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// columns is the width of an indentation, a tab counting [modelTab].
func columns(ind string) int {
	n := 0
	for _, c := range ind {
		if c == '\t' {
			n += modelTab
		} else {
			n++
		}
	}
	return n
}

// unitOf guesses the indentation unit from widths: their greatest common divisor when
// it is 2, 4 or 8, and otherwise 4.
func unitOf(widths []int) int {
	g := 0
	for _, w := range widths {
		g = gcd(g, w)
	}
	switch g {
	case 2, 4, 8:
		return g
	}
	return 4
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// reduce returns n/d in lowest terms with d > 0.
func reduce(n, d int) (int, int) {
	if d < 0 {
		n, d = -n, -d
	}
	g := gcd(n, d)
	if g == 0 {
		return 0, 1
	}
	return n / g, d / g
}

func floorDiv(a, b int) (int, int) {
	q, r := a/b, a%b
	if r < 0 {
		q--
		r += b
	}
	return q, r
}

// windowIndented reports whether any of the k lines from w is indented.
func (f *file) windowIndented(w, k int) bool {
	for j := range k {
		if leading(f.content(w+j)) != "" {
			return true
		}
	}
	return false
}
