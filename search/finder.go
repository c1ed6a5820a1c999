package search

import "bytes"

// finder looks for one literal, case-sensitive or ASCII case-insensitive, by scanning for
// its rarest byte with the vectorized bytes.IndexByte and comparing the literal around
// each hit. A common first byte (the "e" of "errorf") would stop the scan every few bytes;
// a rare one lets it run.
type finder struct {
	lit    []byte // lower case when fold
	fold   bool
	rare   int  // offset in lit of the rarest byte
	r1, r2 byte // that byte, and its other case (r1 == r2 when there is none)
}

func newFinder(lit []byte, fold bool) *finder {
	f := &finder{lit: lit, fold: fold}
	for i, c := range lit {
		if byteRank[c] < byteRank[lit[f.rare]] {
			f.rare = i
		}
	}
	f.setRare(f.rare)
	return f
}

func (f *finder) setRare(i int) {
	f.rare = i
	f.r1, f.r2 = f.lit[i], f.lit[i]
	if f.fold && 'a' <= f.r1 && f.r1 <= 'z' {
		f.r2 = f.r1 - ('a' - 'A')
	}
}

// tuned returns a finder for the same literal whose rare byte is the one least frequent
// in sample, a first buffer of a large file: the general ranking fails on text unlike
// source code (a log file of Greek letter names is full of the "m" of "func main").
func (f *finder) tuned(sample []byte) *finder {
	t := *f
	best := -1
	for i, c := range f.lit {
		n := bytes.Count(sample, []byte{c})
		if f.fold && 'a' <= c && c <= 'z' {
			n += bytes.Count(sample, []byte{c - ('a' - 'A')})
		}
		if best < 0 || n < best {
			best = n
			t.rare = i
		}
	}
	t.setRare(t.rare)
	return &t
}

// index returns the offset of the first occurrence of the literal in h, or -1.
func (f *finder) index(h []byte) int {
	n := len(f.lit)
	if n == 1 && f.r1 == f.r2 {
		return bytes.IndexByte(h, f.r1)
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
		if f.fold && equalFold(h[s:s+n], f.lit) || !f.fold && bytes.Equal(h[s:s+n], f.lit) {
			return s
		}
		p = i + 1
	}
	return -1
}

// byteRank orders bytes by how often they occur in source code and text, 0 the rarest.
// Measured on Go's source tree and /usr/share/doc.
var byteRank = [256]uint8{
	0, 19, 13, 15, 25, 20, 26, 34, 1, 245, 246, 16, 2, 85, 47, 3,
	21, 43, 44, 40, 4, 36, 62, 37, 14, 5, 9, 35, 32, 22, 27, 28,
	255, 170, 228, 175, 165, 167, 172, 176, 230, 229, 189, 171, 240, 206, 235, 236,
	243, 227, 224, 214, 216, 197, 212, 192, 205, 194, 223, 179, 210, 225, 211, 156,
	160, 222, 191, 208, 200, 218, 193, 185, 183, 209, 161, 168, 198, 195, 196, 207,
	201, 166, 213, 221, 219, 186, 190, 178, 182, 177, 162, 188, 184, 187, 158, 217,
	180, 250, 226, 242, 241, 254, 237, 231, 233, 249, 181, 199, 244, 232, 251, 247,
	238, 169, 252, 248, 253, 239, 215, 202, 234, 220, 174, 204, 173, 203, 155, 23,
	154, 136, 151, 144, 117, 140, 131, 94, 145, 120, 124, 83, 103, 73, 89, 84,
	104, 82, 86, 106, 153, 132, 80, 128, 139, 138, 66, 71, 141, 135, 95, 113,
	163, 107, 81, 92, 126, 118, 101, 110, 87, 150, 97, 130, 119, 114, 91, 76,
	90, 127, 122, 116, 102, 98, 121, 159, 109, 143, 125, 100, 137, 115, 129, 77,
	10, 17, 164, 152, 69, 79, 49, 64, 57, 75, 74, 59, 112, 72, 148, 99,
	133, 78, 29, 54, 52, 67, 68, 88, 146, 149, 61, 63, 53, 6, 30, 51,
	111, 142, 157, 147, 93, 123, 134, 108, 96, 70, 65, 56, 58, 55, 18, 60,
	105, 24, 38, 50, 42, 31, 46, 7, 41, 11, 12, 8, 45, 48, 39, 33,
}
