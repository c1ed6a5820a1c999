// Package textdiff renders the change between two texts as a short unified diff.
package textdiff

import (
	"fmt"
	"strings"
)

// maxCells bounds the line-matching table of the changed region (lines of a times lines of
// b). Past it, the region is shown as all its old lines removed and all its new lines
// added: still correct, only less short.
const maxCells = 1 << 20

// Unified returns a unified diff from a to b, with context lines of context around each
// change and nearby changes joined into one hunk, its body cut to maxLines lines (0: no
// cut). Equal texts give "".
//
// The common leading and trailing lines are trimmed first, so the cost is linear in the
// texts plus the square of the changed region only, which is small for the edits llmfs
// makes; a changed region too big to match line by line is shown whole.
func Unified(name, a, b string, context, maxLines int) string {
	if a == b {
		return ""
	}
	return Renamed(name, name, a, b, context, maxLines)
}

// Renamed is [Unified] for a file renamed from one name to another as it changed: its
// header names both, as git's does, and it is only the header when the texts are equal.
func Renamed(from, to, a, b string, context, maxLines int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", from, to)
	if a == b {
		return sb.String()
	}
	ops, hunks := hunksOf(a, b, context)
	body := 0
	for _, h := range hunks {
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", span(h.A, h.ALen), span(h.B, h.BLen))
		for k, o := range ops[h.from:h.to] {
			if maxLines > 0 && body == maxLines {
				rest := h.to - h.from - k
				for _, o := range ops[h.to:] {
					if o.kind != ' ' {
						rest++
					}
				}
				fmt.Fprintf(&sb, "... (%d more diff lines)\n", rest)
				return sb.String()
			}
			sb.WriteByte(o.kind)
			sb.WriteString(o.line)
			sb.WriteByte('\n')
			body++
		}
	}
	return sb.String()
}

// opHunk is a Hunk with where its lines are in the edit script: ops[from:to].
type opHunk struct {
	Hunk
	from, to int
}

// hunksOf returns the edit script of the region of a and b that can appear in a diff (the
// changed lines and context lines around them) and its hunks: a hunk goes on while the
// unchanged run between two changes is at most 2*context lines.
func hunksOf(a, b string, context int) ([]op, []opHunk) {
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

	var hs []opHunk
	aLine, bLine := start, start // 0-based line numbers of ops[0]
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
		h := opHunk{Hunk: Hunk{A: aLine, B: bLine}, from: from, to: to}
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
	return ops, hs
}

// op is one line of an edit script: ' ' kept, '-' removed, '+' added.
type op struct {
	kind byte
	line string
}

func advance(o op, a, b int) (int, int) {
	if o.kind != '+' {
		a++
	}
	if o.kind != '-' {
		b++
	}
	return a, b
}

// diffLines returns a shortest edit script from x to y, by a longest common subsequence
// of lines; removals come before additions where both are possible. When the table would
// be too big it gives all of x removed, then all of y added.
func diffLines(x, y []string) []op {
	var ops []op
	if len(x)*len(y) > maxCells {
		for _, l := range x {
			ops = append(ops, op{'-', l})
		}
		for _, l := range y {
			ops = append(ops, op{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the length of a longest common subsequence of x[i:] and y[j:].
	n, m := len(x), len(y)
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			v := max(at(i+1, j), at(i, j+1))
			if x[i] == y[j] {
				v = at(i+1, j+1) + 1
			}
			lcs[i*(m+1)+j] = v
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i]})
			i++
			j++
		case j == m || i < n && at(i+1, j) >= at(i, j+1):
			ops = append(ops, op{'-', x[i]})
			i++
		default:
			ops = append(ops, op{'+', y[j]})
			j++
		}
	}
	return ops
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// noNewline follows a last line that has no newline, as GNU diff marks it. It is part of
// the line, so "b" and "b\n" differ as lines and their diff is not empty.
const noNewline = "\n\\ No newline at end of file"

// splitLines splits s into lines without their endings ("\r" stays, to show CRLF changes).
// A last line without a newline carries [noNewline].
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if !strings.HasSuffix(s, "\n") {
		lines[len(lines)-1] += noNewline
	}
	return lines
}
