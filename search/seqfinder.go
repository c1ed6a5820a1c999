package search

// seqFinder looks for a sequence of byte classes (see [requiredSeq]): the first position
// where the bytes that start there are in the classes, one each, in order. The vector
// scan (indexSeqFast) tests 32 positions at a time; the rest, and CPUs without it, go
// byte by byte with a shift-and automaton, a bit per class.
type seqFinder struct {
	n    int        // classes, 1 to maxSeq
	bits [256]uint8 // bit j for a byte in class j
	// For the vector scan, a class per 64 bytes: 16 bytes indexed by a byte's low nibble
	// and 16 by its high one, each twice (one copy per 128-bit lane of a register); the
	// low one holds bit h for each high nibble h < 8 the class has with that low nibble,
	// the high one bit h for h, so that a byte is in the class when the two AND to
	// nonzero. Classes past n hold every byte.
	tables [maxSeq * 64]byte
}

func newSeqFinder(seq []byteSet) *seqFinder {
	f := &seqFinder{n: len(seq)}
	for j := range maxSeq {
		t := f.tables[j*64 : j*64+64]
		if j >= len(seq) {
			for i := range t {
				t[i] = 0xff
			}
			continue
		}
		for c := range 0x80 {
			if seq[j].has(byte(c)) {
				f.bits[c] |= 1 << j
				t[c&15] |= 1 << (c >> 4)
				t[16+(c&15)] |= 1 << (c >> 4)
			}
		}
		for h := range 8 {
			t[32+h] = 1 << h
			t[48+h] = 1 << h
		}
	}
	return f
}

// index returns the first position in b where the sequence occurs whole, or -1.
func (f *seqFinder) index(b []byte) int {
	i := 0
	if hasSeqScan {
		r := indexSeqFast(b, &f.tables)
		if r >= 0 {
			return r
		}
		i = -1 - r
	}
	if r := f.indexSlow(b[i:]); r >= 0 {
		return i + r
	}
	return -1
}

// indexSlow is index byte by byte: after each byte, bit j of st says that the last j+1
// bytes are in the first j+1 classes.
func (f *seqFinder) indexSlow(b []byte) int {
	last := uint8(1) << (f.n - 1)
	var st uint8
	for i, c := range b {
		st = (st<<1 | 1) & f.bits[c]
		if st&last != 0 {
			return i + 1 - f.n
		}
	}
	return -1
}
