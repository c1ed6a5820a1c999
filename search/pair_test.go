package search

import (
	"math/rand/v2"
	"testing"
)

// TestIndexPairFast checks the vector scan against a byte-by-byte one on random texts of
// every length up to a few blocks, so that each of its loops (64 and 32 positions a
// round) and the ends between them are crossed: a position it reports is the first
// one, and the positions it says it checked hold none.
func TestIndexPairFast(t *testing.T) {
	if !hasPairScan {
		t.Skip("no vector scan on this CPU or build")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	want := func(h []byte, d int, a1, a2, b1, b2 byte, upTo int) int {
		for i := 0; i < upTo && i+d < len(h); i++ {
			if (h[i] == a1 || h[i] == a2) && (h[i+d] == b1 || h[i+d] == b2) {
				return i
			}
		}
		return -1
	}
	for n := range 400 {
		for range 20 {
			h := make([]byte, n)
			for i := range h {
				h[i] = "abcdefghij"[rng.IntN(10)]
			}
			// Rare pairs: most texts hold none, some one near the end.
			if n > 0 && rng.IntN(3) == 0 {
				h[rng.IntN(n)] = 'x'
			}
			if n > 0 && rng.IntN(3) == 0 {
				h[rng.IntN(n)] = 'y'
			}
			d := rng.IntN(min(n+1, 40))
			got := indexPairFast(h, d, 'x', 'X', 'y', 'Y')
			if got >= 0 {
				if w := want(h, d, 'x', 'X', 'y', 'Y', len(h)); got != w {
					t.Fatalf("n=%d d=%d: found at %d, the first is at %d", n, d, got, w)
				}
				continue
			}
			checked := -1 - got
			if checked > len(h)-d || checked < 0 {
				t.Fatalf("n=%d d=%d: says it checked %d positions", n, d, checked)
			}
			if w := want(h, d, 'x', 'X', 'y', 'Y', checked); w >= 0 {
				t.Fatalf("n=%d d=%d: missed the pair at %d (checked %d)", n, d, w, checked)
			}
			if len(h)-d >= 32 && checked < len(h)-d-31 {
				t.Fatalf("n=%d d=%d: checked only %d of %d positions", n, d, checked, len(h)-d)
			}
		}
	}
}
