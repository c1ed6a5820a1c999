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
	al, bl := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	start := max(pre-context, 0)
	var ops []op
	for _, l := range al[start:pre] {
		ops = append(ops, op{' ', l})
	}
	ops = append(ops, diffLines(al[pre:len(al)-suf], bl[pre:len(bl)-suf])...)
	for _, l := range al[len(al)-suf : min(len(al)-suf+context, len(al))] {
		ops = append(ops, op{' ', l})
	}
	var hs []Hunk
	aLine, bLine := start, start
	for i := 0; i < len(ops); {
		first := i
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		last := first
		for j := first; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				if j-last-1 > 2*context {
					break
				}
				last = j
			}
		}
		from := max(first-context, i)
		to := min(last+context+1, len(ops))
		for _, o := range ops[i:from] {
			aLine, bLine = advance(o, aLine, bLine)
		}
		h := Hunk{A: aLine, B: bLine}
		for _, o := range ops[from:to] {
			switch o.kind {
			case '+':
				h.BLen++
				h.Added++
			case '-':
				h.ALen++
				h.Removed++
			default:
				h.ALen++
				h.BLen++
			}
			aLine, bLine = advance(o, aLine, bLine)
		}
		hs = append(hs, h)
		i = to
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
