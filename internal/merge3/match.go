package merge3

import "bytes"

// maxCells bounds the table of a longest common subsequence (int32 cells: 16 MiB): past
// it, the lines between the common head and tail are taken as all changed, which makes a
// merge coarser (more conflicts), never wrong.
const maxCells = 1 << 22

// match returns, for each line of a, the index of the line of b it is matched with in a
// longest common subsequence, or -1. The matches increase with a's index.
func match(a, b [][]byte) []int {
	m := make([]int, len(a))
	for i := range m {
		m[i] = -1
	}
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		m[pre] = pre
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		m[len(a)-1-suf] = len(b) - 1 - suf
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, w := len(x), len(y)
	if n == 0 || w == 0 || n*w > maxCells {
		return m
	}
	// Lines as numbers, so that the table compares integers.
	ids := map[string]int32{}
	id := func(l []byte) int32 {
		v, ok := ids[string(l)]
		if !ok {
			v = int32(len(ids))
			ids[string(l)] = v
		}
		return v
	}
	xi, yi := make([]int32, n), make([]int32, w)
	for i, l := range x {
		xi[i] = id(l)
	}
	for j, l := range y {
		yi[j] = id(l)
	}
	// lcs[i*(w+1)+j] is the length of a longest common subsequence of x[i:] and y[j:].
	lcs := make([]int32, (n+1)*(w+1))
	at := func(i, j int) int32 { return lcs[i*(w+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := w - 1; j >= 0; j-- {
			v := max(at(i+1, j), at(i, j+1))
			if xi[i] == yi[j] {
				v = at(i+1, j+1) + 1
			}
			lcs[i*(w+1)+j] = v
		}
	}
	for i, j := 0, 0; i < n && j < w; {
		switch {
		case xi[i] == yi[j]:
			m[pre+i] = pre + j
			i++
			j++
		case at(i+1, j) >= at(i, j+1):
			i++
		default:
			j++
		}
	}
	return m
}
