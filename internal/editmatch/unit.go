package editmatch

import "strings"

// spaceUnit is the indentation unit of the space-indented lines of texts: the step
// between one line and the next, deeper one that occurs most often (2, 3, 4 or 8; a tie
// goes to the smaller). Comment continuation lines (" * text" under "/**") are left out:
// their one-space alignment is not a level, and counting it made a 2-space file look
// 1-space and then, by the greatest common divisor, 4-space. Without any step, it falls
// back to [unitOf] of the widths.
func spaceUnit(texts ...string) int {
	steps := map[int]int{}
	var widths []int
	for _, text := range texts {
		prev := -1
		for l := range strings.Lines(text) {
			body := strings.TrimLeft(l, " \t")
			if strings.TrimSpace(body) == "" || strings.HasPrefix(body, "*") {
				continue
			}
			ind := l[:len(l)-len(body)]
			if strings.Contains(ind, "\t") {
				prev = -1
				continue
			}
			if ind != "" {
				widths = append(widths, len(ind))
			}
			if d := len(ind) - prev; prev >= 0 && d > 0 {
				steps[d]++
			}
			prev = len(ind)
		}
	}
	best, n := 0, 0
	for _, u := range []int{2, 3, 4, 8} {
		if steps[u] > n {
			best, n = u, steps[u]
		}
	}
	if best > 0 {
		return best
	}
	return unitOf(widths)
}
