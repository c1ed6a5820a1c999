package editmatch

import (
	"strings"
)

// modelTab is the width given to a tab in a model's text when its depth has to be
// compared with spaces.
const modelTab = 4

// reindenter moves a model's lines to the file's indentation: a line d columns deeper
// than old's first non-blank line goes d*num/den file units deeper than the file line
// that matched it, where a unit is a tab in a file indented with tabs and a space
// otherwise.
type reindenter struct {
	tabs     bool // the file's window is indented with tabs
	base     int  // model columns of old's first non-blank line
	fileBase int  // file units of the line it matched
	num, den int  // file units per model column
}

func (f *file) newReindenter(w int, old, new model) *reindenter {
	r := &reindenter{num: 1, den: 1}
	for j := range old.lines {
		fl := f.content(w + j)
		if strings.TrimSpace(fl) == "" {
			continue
		}
		if strings.HasPrefix(leading(fl), "\t") {
			r.tabs = true
		}
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

	modelTabs := false
	var modelWidths []int
	for _, l := range append(append([]string{}, old.lines...), new.lines...) {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := leading(l)
		if strings.HasPrefix(ind, "\t") {
			modelTabs = true
		}
		modelWidths = append(modelWidths, columns(ind))
	}
	// The same kind of indentation on both sides: a shift. The model's own relative
	// depths are kept even where its old text got them wrong, since its new text is what
	// it means.
	if r.tabs == modelTabs {
		if r.tabs {
			r.den = modelTab
		}
		return r
	}
	// Tabs on one side, spaces on the other: calibrate on the matched lines, where every
	// pair of a model depth and a file depth gives the same ratio when the model re-tabbed
	// the block consistently.
	calibrated, consistent := false, true
	for j, l := range old.lines {
		if strings.TrimSpace(l) == "" || j == first {
			continue
		}
		dm := columns(leading(l)) - r.base
		df := r.units(leading(f.content(w+j))) - r.fileBase
		if dm == 0 {
			if df != 0 {
				consistent = false
			}
			continue
		}
		n, d := reduce(df, dm)
		if !calibrated {
			r.num, r.den, calibrated = n, d, true
		} else if n != r.num || d != r.den {
			consistent = false
		}
	}
	if calibrated && consistent && r.num > 0 {
		return r
	}
	// No usable calibration: guess the unit of the side with spaces.
	switch {
	case r.tabs:
		r.num, r.den = 1, unitOf(modelWidths)
	case modelTabs:
		var widths []int
		for _, fl := range f.lines {
			ind := leading(f.text[fl.start:fl.end])
			if ind != "" && !strings.Contains(ind, "\t") {
				widths = append(widths, len(ind))
			}
		}
		r.num, r.den = unitOf(widths), modelTab
	}
	return r
}

// units is the depth of a file indentation in file units.
func (r *reindenter) units(ind string) int {
	if r.tabs {
		return strings.Count(ind, "\t")
	}
	return columns(ind)
}

// apply re-indents one model line; a blank line becomes empty.
func (r *reindenter) apply(l string) string {
	body := strings.TrimLeft(l, " \t")
	if strings.TrimSpace(body) == "" {
		return ""
	}
	d := (columns(l[:len(l)-len(body)]) - r.base) * r.num
	q, rem := floorDiv(d, r.den)
	n := r.fileBase + q
	if n < 0 {
		n, rem = 0, 0
	}
	if r.tabs {
		// A part of a unit (alignment) stays as spaces, in the model's columns.
		return strings.Repeat("\t", n) + strings.Repeat(" ", rem/max(r.num, 1)) + body
	}
	return strings.Repeat(" ", n) + body
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
