package search

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestFinder compares the finder with bytes.Index, on the text and on its lower-cased
// copy for the case-insensitive finder.
func TestFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("aAbBeEfFzZ \n_é")
	for range 5000 {
		h := make([]byte, rng.IntN(60))
		for i := range h {
			h[i] = alphabet[rng.IntN(len(alphabet))]
		}
		lit := make([]byte, 1+rng.IntN(4))
		for i := range lit {
			lit[i] = "abefz _"[rng.IntN(7)]
		}
		if got, want := newFinder(lit, false).index(h), bytes.Index(h, lit); got != want {
			t.Fatalf("finder(%q).index(%q) = %d, want %d", lit, h, got, want)
		}
		lower := make([]byte, len(h))
		for i, c := range h {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[i] = c
		}
		if got, want := newFinder(lit, true).index(h), bytes.Index(lower, lit); got != want {
			t.Fatalf("fold finder(%q).index(%q) = %d, want %d", lit, h, got, want)
		}
	}
}

func TestFinderTuned(t *testing.T) {
	f := newFinder([]byte("func main"), false)
	if f.lit[f.rare] != 'm' {
		t.Fatalf("rare byte of %q = %q, want 'm' by the table", f.lit, f.lit[f.rare])
	}
	sample := []byte("gamma lambda omega sigma func main\n")
	g := f.tuned(sample)
	if c := g.lit[g.rare]; c != 'f' && c != 'u' && c != ' ' && c != 'c' {
		t.Errorf("tuned rare byte = %q, want one that occurs once in %q", c, sample)
	}
	if i := g.index(sample); i != 25 {
		t.Errorf("tuned index = %d, want 25", i)
	}
}
