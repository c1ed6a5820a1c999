package search

import (
	"bytes"
	"slices"
)

// finder looks for one literal, case-sensitive or ASCII case-insensitive, by scanning for
// its rarest byte with the vectorized bytes.IndexByte and comparing the literal around
// each hit. A common first byte (the "e" of "errorf") would stop the scan every few bytes;
// a rare one lets it run. Even the rarest byte of a literal can be common (the "m" of
// "func main" is in most lines of code), so each hit first checks a second rare byte at
// its fixed offset, which turns most false hits away before the whole literal is compared.
// Rarity is measured, not guessed: [byteRank] is generated from Go's source tree.
type finder struct {
	lit    []byte // lower case when fold
	fold   bool
	rare   int  // offset in lit of the rarest byte
	r1, r2 byte // that byte, and its other case (r1 == r2 when there is none)
	rare2  int  // offset of the second rarest byte, or -1 when lit has one byte
	s1, s2 byte // the byte at rare2, and its other case
}

func newFinder(lit []byte, fold bool) *finder {
	f := &finder{lit: lit, fold: fold}
	f.pick(func(c byte) int { return int(byteRank[c]) })
	return f
}

// pick sets the rare byte and the second one to the two offsets of the lowest score,
// preferring for the second a byte unlike the first, whose check would add nothing.
func (f *finder) pick(score func(c byte) int) {
	f.rare, f.rare2 = 0, -1
	for i, c := range f.lit {
		if score(c) < score(f.lit[f.rare]) {
			f.rare = i
		}
	}
	best := 0
	for i, c := range f.lit {
		if i == f.rare {
			continue
		}
		s := score(c)
		if c == f.lit[f.rare] {
			s += 1 << 30
		}
		if f.rare2 < 0 || s < best {
			best, f.rare2 = s, i
		}
	}
	f.r1, f.r2 = f.cases(f.rare)
	if f.rare2 >= 0 {
		f.s1, f.s2 = f.cases(f.rare2)
	}
}

// cases returns the byte at offset i of the literal and its other case when folding.
func (f *finder) cases(i int) (byte, byte) {
	c := f.lit[i]
	if f.fold && 'a' <= c && c <= 'z' {
		return c, c - ('a' - 'A')
	}
	return c, c
}

// tuned returns a finder for the same literal whose rare bytes are the ones least frequent
// in sample, a first buffer of a large file: the general ranking fails on text unlike
// source code (a log file of Greek letter names is full of the "m" of "func main").
func (f *finder) tuned(sample []byte) *finder {
	t := *f
	// Count only the literal's bytes, each once, with the vectorized bytes.Count: a loop
	// over every byte of the sample cost more than the search it tuned.
	var count [256]int
	var seen [256]bool
	for _, c := range f.lit {
		if seen[c] {
			continue
		}
		seen[c] = true
		count[c] = bytes.Count(sample, []byte{c})
		if f.fold && 'a' <= c && c <= 'z' {
			count[c] += bytes.Count(sample, []byte{c - ('a' - 'A')})
		}
	}
	t.pick(func(c byte) int { return count[c] })
	return &t
}

// sampledPairOffsets is how many of the literal's offsets [finder.sampled] tries the
// pairs of. (Trying pairs in the first buffer of each large file as well, in tuned, cost
// more than it saved on the Linux tree: 0.92x to 1.06x the CPU of the grep.)
const sampledPairOffsets = 8

// rarest returns up to k offsets of the literal, those of the lowest scores.
func (f *finder) rarest(score func(c byte) int, k int) []int {
	offs := make([]int, len(f.lit))
	for i := range offs {
		offs[i] = i
	}
	slices.SortStableFunc(offs, func(a, b int) int { return score(f.lit[a]) - score(f.lit[b]) })
	return offs[:min(k, len(offs))]
}

// sampled returns a finder for the same literal whose two bytes are, of the pairs of its
// sampledPairOffsets rarest offsets by the general ranking, the pair the scan stops at
// least often in sample: text from the files searched so far. Two bytes each rare alone
// can often appear together at their distance (the "o" and "f" of "errorf" in C, 1,341
// stops a MiB of the Linux tree, where its "r" and "f" stop 257 times).
func (f *finder) sampled(sample []byte) *finder {
	t := *f
	if hasPairScan && len(f.lit) > 1 {
		t.pickPair(sample, t.rarest(func(c byte) int { return int(byteRank[c]) }, sampledPairOffsets))
	}
	return &t
}

// pickPair sets the rare byte and the second one to the pair of offsets in offs at
// which the pair scan stops least often in sample (the current pair when none does
// better).
func (f *finder) pickPair(sample []byte, offs []int) {
	if f.rare2 < 0 {
		return
	}
	// Another pair must stop at most half as often: the sample is a small part of the
	// text, and a pair barely better in it is as likely worse in the rest.
	best := f.stops(sample, f.rare, f.rare2, len(sample)) / 2
	bi, bj := f.rare, f.rare2
	for x, i := range offs {
		for _, j := range offs[x+1:] {
			if n := f.stops(sample, i, j, best); n < best {
				best, bi, bj = n, i, j
			}
		}
	}

	f.rare, f.rare2 = bi, bj
	f.r1, f.r2 = f.cases(bi)
	f.s1, f.s2 = f.cases(bj)
}

// stops counts the positions in h at which a scan for the literal's bytes at offsets i
// and j stops, counting no further than limit.
func (f *finder) stops(h []byte, i, j, limit int) int {
	lo, hi := min(i, j), max(i, j)
	a1, a2 := f.cases(lo)
	b1, b2 := f.cases(hi)
	d := hi - lo
	n := 0
	for p := 0; p+d < len(h) && n < limit; n++ {
		w := h[p:]
		k := indexPairFast(w, d, a1, a2, b1, b2)
		if k < 0 {
			for k = -1 - k; k+d < len(w); k++ {
				if c := w[k]; c == a1 || c == a2 {
					if c := w[k+d]; c == b1 || c == b2 {
						break
					}
				}
			}
			if k+d >= len(w) {
				return n
			}
		}
		p += k + 1
	}
	return n
}

// index returns the offset of the first occurrence of the literal in h, or -1.
func (f *finder) index(h []byte) int {
	n := len(f.lit)
	if n == 1 && f.r1 == f.r2 {
		return bytes.IndexByte(h, f.r1)
	}
	if hasPairScan && f.rare2 >= 0 {
		return f.indexPair(h)
	}
	next1, next2 := -2, -2 // offsets of the next r1 and r2 at or after p; -1: none
	if f.r1 == f.r2 {
		next2 = -1
	}
	for p := f.rare; p+n-f.rare <= len(h); {
		if next1 != -1 && next1 < p {
			if j := bytes.IndexByte(h[p:], f.r1); j < 0 {
				next1 = -1
			} else {
				next1 = p + j
			}
		}
		if next2 != -1 && next2 < p {
			if j := bytes.IndexByte(h[p:], f.r2); j < 0 {
				next2 = -1
			} else {
				next2 = p + j
			}
		}
		i := next1
		if i < 0 || (next2 >= 0 && next2 < i) {
			i = next2
		}
		if i < 0 {
			return -1
		}
		s := i - f.rare
		if s+n > len(h) {
			return -1
		}
		if f.rare2 >= 0 {
			if c := h[s+f.rare2]; c != f.s1 && c != f.s2 {
				p = i + 1
				continue
			}
		}
		if f.fold && equalFold(h[s:s+n], f.lit) || !f.fold && bytes.Equal(h[s:s+n], f.lit) {
			return s
		}
		p = i + 1
	}
	return -1
}

// indexPair is index by a vector scan for the two rare bytes at once, each at its offset
// (as ripgrep's searcher does): where the rarest byte of a literal is common all the same
// (the "u" of "return nil" in C), a scan for it alone stops every few dozen bytes.
func (f *finder) indexPair(h []byte) int {
	n := len(f.lit)
	lo, hi := f.rare, f.rare2
	a1, a2, b1, b2 := f.r1, f.r2, f.s1, f.s2
	if lo > hi {
		lo, hi = hi, lo
		a1, a2, b1, b2 = b1, b2, a1, a2
	}
	d := hi - lo
	// p is where the byte at lo may be next; a match starting at s has it at s+lo, and
	// needs s+n <= len(h).
	for p := lo; p <= len(h)-n+lo; {
		w := h[p : len(h)-n+hi+1]
		j := indexPairFast(w, d, a1, a2, b1, b2)
		if j < 0 {
			// The vector scan checked the first -1-j positions; the rest, one by one.
			j = -1 - j
			for ; j+d < len(w); j++ {
				if c := w[j]; c == a1 || c == a2 {
					if c := w[j+d]; c == b1 || c == b2 {
						break
					}
				}
			}
			if j+d >= len(w) {
				return -1
			}
		}
		s := p + j - lo
		if f.fold && equalFold(h[s:s+n], f.lit) || !f.fold && bytes.Equal(h[s:s+n], f.lit) {
			return s
		}
		p += j + 1
	}
	return -1
}
