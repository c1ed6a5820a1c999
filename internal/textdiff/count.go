package textdiff

import "strings"

// Count returns the lines [Hunks] reports added and removed from a to b, summed over its
// hunks, without building them: the journal counts every change it records with it, so
// the common cases (a file made, removed or left as it was) take one pass over the text.
func Count(a, b string) (added, removed int) {
	switch {
	case a == b:
		return 0, 0
	case a == "":
		return lineCount(b), 0
	case b == "":
		return 0, lineCount(a)
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
	x, y := al[pre:len(al)-suf], bl[pre:len(bl)-suf]
	if len(x) == 0 || len(y) == 0 || len(x)*len(y) > maxCells {
		return len(y), len(x)
	}
	for _, o := range diffLines(x, y) {
		switch o.kind {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	return added, removed
}

// lineCount is len(splitLines(s)) without splitting.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
