package textdiff

import "strings"

// A Hunk is one hunk of [Unified]'s diff, by 0-based line numbers: lines A to A+ALen of
// the old text became lines B to B+BLen of the new, context included.
type Hunk struct {
	A, ALen, B, BLen int
	Added, Removed   int
}

// Hunks returns the hunks [Unified] shows for the same texts and context, in order, so that
// a caller can name them by their index (review's "--hunk N" counts from 1 over these).
func Hunks(a, b string, context int) []Hunk {
	if a == b {
		return nil
	}
	_, ohs := hunksOf(a, b, context)
	hs := make([]Hunk, len(ohs))
	for i, h := range ohs {
		hs[i] = h.Hunk
	}
	return hs
}

// Pick returns a with the hunks take chooses (by index into Hunks(a, b, context)) taken
// from b: taking every hunk gives b, taking none gives a.
func Pick(a, b string, context int, take func(i int) bool) string {
	al, bl := splitLines(a), splitLines(b)
	var out []string
	at := 0
	for i, h := range Hunks(a, b, context) {
		out = append(out, al[at:h.A]...)
		if take(i) {
			out = append(out, bl[h.B:h.B+h.BLen]...)
		} else {
			out = append(out, al[h.A:h.A+h.ALen]...)
		}
		at = h.A + h.ALen
	}
	out = append(out, al[at:]...)
	return joinLines(out)
}

// joinLines undoes splitLines.
func joinLines(lines []string) string {
	var sb strings.Builder
	for i, l := range lines {
		if s, ok := strings.CutSuffix(l, noNewline); ok {
			sb.WriteString(s)
			if i < len(lines)-1 { // a marked line that is no longer last gets its newline back
				sb.WriteByte('\n')
			}
			continue
		}
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	return sb.String()
}
