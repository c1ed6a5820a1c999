package textdiff

// HunkCounts returns what [Hunks] gives summed: the lines added and removed and the number
// of hunks. The lines both texts begin and end with are cut off as bytes before the texts
// are split into lines, so a small change to a file costs a comparison of its bytes, not a
// slice of its lines: review lists 1,000 changes with their counts, and splitting both
// versions of each was two thirds of the counting. The counts are those of [Hunks]: the
// common lines cut off are the ones hunksOf would have cut, context lines are not counted,
// and two hunks are kept apart by lines of the middle only.
func HunkCounts(a, b string, context int) (added, removed, hunks int) {
	if a == b {
		return 0, 0, 0
	}
	a, b = trimCommonLines(a, b)
	_, hs := hunksOf(a, b, context)
	for _, h := range hs {
		added += h.Added
		removed += h.Removed
	}
	return added, removed, len(hs)
}

// trimCommonLines cuts the whole lines a and b begin with and end with alike; what is left
// of each begins at a line's start and ends at a line's end (the end of the text for a last
// line without a newline). Callers have a != b.
func trimCommonLines(a, b string) (string, string) {
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	// Back to the end of the last line both hold whole: the byte after it differs, or one
	// text ends, so a line cut off ends with a newline in both.
	for p > 0 && a[p-1] != '\n' {
		p--
	}
	a, b = a[p:], b[p:]
	n = min(len(a), len(b))
	s := 0
	for s < n && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	// Forward to the start of a line in both: the byte before the cut is a newline (equal
	// in both while inside the common end), or the cut is the start of the text.
	for s > 0 && !(lineStart(a, len(a)-s) && lineStart(b, len(b)-s)) {
		s--
	}
	return a[:len(a)-s], b[:len(b)-s]
}

// lineStart reports whether byte i of s begins a line.
func lineStart(s string, i int) bool { return i == 0 || s[i-1] == '\n' }
