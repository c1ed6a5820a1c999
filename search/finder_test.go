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
		h := make([]byte, rng.IntN(300)) // past the 32 bytes of a vector scan
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

// TestFinderSecondRareByte: issue 18.1: the finder keyed on one byte, and for "func main"
// that byte ("m") is in most lines of code, so the whole literal was compared at every
// one. The finder now checks a second rare byte, by the measured table, at its offset.
func TestFinderSecondRareByte(t *testing.T) {
	for _, tc := range []struct {
		lit       string
		fold      bool
		rare, two byte
	}{
		{"func main", false, 'm', 'u'},
		{"errorf", true, 'f', 'o'},
		{"mm", false, 'm', 'm'}, // no other byte: the second check is the same byte
		{"x", false, 'x', 0},
	} {
		f := newFinder([]byte(tc.lit), tc.fold)
		if f.lit[f.rare] != tc.rare {
			t.Errorf("%q: rare byte %q, want %q", tc.lit, f.lit[f.rare], tc.rare)
		}
		if tc.two == 0 {
			if f.rare2 != -1 {
				t.Errorf("%q: second rare offset %d, want none", tc.lit, f.rare2)
			}
			continue
		}
		if f.rare2 < 0 || f.rare2 == f.rare || f.lit[f.rare2] != tc.two {
			t.Errorf("%q: second rare byte at %d, want %q at another offset than %d", tc.lit, f.rare2, tc.two, f.rare)
		}
	}
	// A hit on the rare byte whose second byte differs is passed over, then found.
	f := newFinder([]byte("func main"), false)
	h := []byte("xxxx main func mxxx func main")
	if i := f.index(h); i != 20 {
		t.Errorf("index = %d, want 20", i)
	}
	g := newFinder([]byte("errorf"), true)
	if i := g.index([]byte("ERROR fOO errorF")); i != 10 {
		t.Errorf("fold index = %d, want 10", i)
	}
}

// TestFinderLongLiterals compares the finder with bytes.Index for literals whose two rare
// bytes lie far apart, in texts long enough for several blocks of the vector scan.
func TestFinderLongLiterals(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		lit := make([]byte, 2+rng.IntN(40))
		for i := range lit {
			lit[i] = "ab"[rng.IntN(2)]
		}
		lit[rng.IntN(len(lit))] = 'Q'
		h := make([]byte, rng.IntN(400))
		for i := range h {
			h[i] = "abQq"[rng.IntN(4)]
		}
		if rng.IntN(2) == 0 && len(h) > len(lit) {
			copy(h[rng.IntN(len(h)-len(lit)):], lit)
		}
		if got, want := newFinder(lit, false).index(h), bytes.Index(h, lit); got != want {
			t.Fatalf("finder(%q).index(%q) = %d, want %d", lit, h, got, want)
		}
		if got, want := newFinder(bytes.ToLower(lit), true).index(h), bytes.Index(bytes.ToLower(h), bytes.ToLower(lit)); got != want {
			t.Fatalf("fold finder(%q).index(%q) = %d, want %d", lit, h, got, want)
		}
	}
}

// TestFinderSampled checks that a finder tuned by a sample of the text moves to the pair
// of bytes that stops the scan least often in it, keeps its pair when none is much
// better, and finds what the untuned finder finds.
func TestFinderSampled(t *testing.T) {
	if !hasPairScan {
		t.Skip("the pair is tuned only with the vector scan")
	}
	// Text full of "o" two bytes before "f" (the pair picked by the general ranking for
	// "errorf"), but with no "rf".
	sample := bytes.Repeat([]byte("info of (of) proof: fo of\n"), 4000)
	f := newFinder([]byte("errorf"), true)
	g := f.sampled(sample)
	before := f.stops(sample, f.rare, f.rare2, len(sample))
	after := g.stops(sample, g.rare, g.rare2, len(sample))
	if after*2 > before {
		t.Errorf("sampled pair %d,%d stops %d times, the first pair %d,%d %d times", g.rare, g.rare2, after, f.rare, f.rare2, before)
	}
	h := append(bytes.Clone(sample), []byte("x := ERRORF(y)\n")...)
	if i, j := f.index(h), g.index(h); i != j || i != len(sample)+5 {
		t.Errorf("index: untuned %d, sampled %d, want %d", i, j, len(sample)+5)
	}
	// Source code like the general ranking's: the pair stays.
	code := bytes.Repeat([]byte("if err != nil {\n\treturn fmt.Errorf(\"x: %w\", err)\n}\n"), 2000)
	k := newFinder([]byte("func main"), false)
	if m := k.sampled(code); m.rare != k.rare || m.rare2 != k.rare2 {
		t.Errorf("func main: pair moved from %d,%d to %d,%d on code where no pair stops half as often", k.rare, k.rare2, m.rare, m.rare2)
	}
}
