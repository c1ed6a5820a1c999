package patch

import (
	"fmt"
	"strings"

	"github.com/llmfs/llmfs/internal/editmatch"
)

func hunkLabel(path string, k, n int) string {
	return fmt.Sprintf("%s: hunk %d of %d", path, k+1, n)
}

func anchorMissing(path, text, anchor string, k, n int) *MatchError {
	e := &MatchError{}
	e.Nearest, e.NearestText = nearest(text, anchor)
	e.Msg = fmt.Sprintf("%s: the @@ line %q was not found after the hunk before it.%s", hunkLabel(path, k, n), clip(anchor), nearestNote(e))
	return e
}

func ambiguous(path, text string, from int, a *editmatch.Ambiguous, k, n int) *MatchError {
	base := strings.Count(text[:from], "\n")
	e := &MatchError{Ambiguous: true, Count: a.Count}
	var where []string
	for _, l := range a.Lines {
		e.Lines = append(e.Lines, base+l)
		where = append(where, fmt.Sprint(base+l))
	}
	how := "exactly"
	if a.Step != editmatch.Exact {
		how = "ignoring " + string(a.Step)
	}
	e.Msg = fmt.Sprintf("%s: its old lines match %d places %s (at lines %s); add context lines (or an @@ line naming the enclosing function) to make it unique. Nothing was changed.",
		hunkLabel(path, k, n), a.Count, how, strings.Join(where, ", "))
	return e
}

func notFound(path, text string, h Hunk, k, n int, after bool) *MatchError {
	e := &MatchError{}
	first := ""
	for l := range strings.SplitSeq(h.Old, "\n") {
		if strings.TrimSpace(l) != "" {
			first = l
			break
		}
	}
	e.Nearest, e.NearestText = nearest(text, first)
	where := ""
	if after {
		where = " after the hunk before it"
	}
	e.Msg = fmt.Sprintf("%s: its old lines were not found%s (not exactly, nor ignoring whitespace, indentation, typographic punctuation or line numbers). Nothing was changed.%s",
		hunkLabel(path, k, n), where, nearestNote(e))
	return e
}

func nearestNote(e *MatchError) string {
	if e.Nearest == 0 {
		return " No line of the file resembles its first line; read the file again."
	}
	return fmt.Sprintf(" The nearest text is at line %d:\n%s", e.Nearest, e.NearestText)
}

// nearest finds the line of text most like want (by shared character pairs, whitespace
// ignored) and returns its number and that line with the two after it, or 0.
func nearest(text, want string) (int, string) {
	wb := bigrams(want)
	if len(wb) == 0 {
		return 0, ""
	}
	lines := strings.Split(text, "\n")
	best, bestScore := -1, 0.5
	for i, l := range lines {
		if len(l) > 4*len(want)+16 {
			continue
		}
		lb := bigrams(l)
		if len(lb) == 0 {
			continue
		}
		common := 0
		for k, c := range lb {
			common += min(c, wb[k])
		}
		total := 0
		for _, c := range lb {
			total += c
		}
		wt := 0
		for _, c := range wb {
			wt += c
		}
		if s := 2 * float64(common) / float64(total+wt); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return 0, ""
	}
	end := min(best+3, len(lines))
	var sb strings.Builder
	for i := best; i < end; i++ {
		fmt.Fprintf(&sb, "%6d\t%s\n", i+1, clip(strings.TrimSuffix(lines[i], "\r")))
	}
	return best + 1, sb.String()
}

func bigrams(s string) map[string]int {
	s = strings.Join(strings.Fields(s), "")
	m := map[string]int{}
	for i := 0; i+1 < len(s); i++ {
		m[s[i:i+2]]++
	}
	return m
}
