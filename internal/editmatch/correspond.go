package editmatch

import "strings"

// maxCorrespondCells bounds the table of [correspond]; larger edits pair lines only
// where old and new have the same number of lines.
const maxCorrespondCells = 1 << 20

// correspond maps each new line to the old line it stands for, or -1: lines equal but for
// their indentation pair by a longest common subsequence, and between two such pairs the
// lines of a stretch as long in old as in new pair one by one (a line the edit rewrote).
func correspond(old, new []string) []int {
	out := make([]int, len(new))
	for i := range out {
		out[i] = -1
	}
	n, m := len(old), len(new)
	if n*m > maxCorrespondCells {
		if n == m {
			for i := range out {
				out[i] = i
			}
		}
		return out
	}
	key := func(s string) string { return strings.TrimSpace(s) }
	// lcs[i][j] is the length of the longest common subsequence of old[i:] and new[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case key(old[i]) != "" && key(old[i]) == key(new[j]):
				lcs[i][j] = lcs[i+1][j+1] + 1
			default:
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	pairGap := func(i0, i1, j0, j1 int) {
		if i1-i0 == j1-j0 {
			for k := 0; k < j1-j0; k++ {
				out[j0+k] = i0 + k
			}
		}
	}
	i, j, gi, gj := 0, 0, 0, 0
	for i < n && j < m {
		switch {
		case key(old[i]) != "" && key(old[i]) == key(new[j]):
			pairGap(gi, i, gj, j)
			out[j] = i
			i, j = i+1, j+1
			gi, gj = i, j
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	pairGap(gi, n, gj, m)
	return out
}
