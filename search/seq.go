package search

import (
	"math"
	"regexp/syntax"
	"unicode"
)

// A regular expression with no required literal often still requires a short run of
// single-byte character classes: every match of "[A-Z][a-z]*[0-9]{3}" holds three digits
// in a row. Looking for such a run with a vector scan, and confirming only the lines that
// hold one with the automaton, is several times faster than running the automaton over
// every byte (issue 18). seqFinder does the looking; requiredSeq picks the run.

// maxSeq is the most classes a sequence holds: longer runs are cut to their most
// selective window of maxSeq classes, which the vector scan tests in one pass.
const maxSeq = 4

// maxSeqProb is the largest estimated chance, per byte, that a sequence occurs at a
// position for it to be worth a prefilter: above it, candidate lines come so often that
// the scan stops about every line and the automaton confirms nearly all of the text.
// By the estimate "[0-9]{3}" is 0.0009, "[0-9]{2}" 0.009 and "[A-Z][a-z]" 0.044. The
// limit is a guess on the safe side, not tuned: even a candidate on every line costs
// about what the automaton alone does (BenchmarkNextLineNoLiteral/numbers).
const maxSeqProb = 0.004

// A byteSet is a set of ASCII bytes, bit c of the pair for byte c.
type byteSet [2]uint64

func (s *byteSet) add(c byte) { s[c>>6] |= 1 << (c & 63) }

func (s byteSet) has(c byte) bool { return c < 0x80 && s[c>>6]&(1<<(c&63)) != 0 }

// byteFreq estimates the share of the bytes of source code that are c, from its rank in
// [byteRank]: measured on Go's tree, the share halves about every 15 ranks from 3% at
// rank 247 ('a'), and is at most that of the space, the commonest byte (14%).
func byteFreq(c byte) float64 {
	return min(0.14, 0.03*math.Exp2((float64(byteRank[c])-247)/15))
}

// prob estimates the chance that a byte of source code is in s.
func (s byteSet) prob() float64 {
	p := 0.0
	for c := range 0x80 {
		if s.has(byte(c)) {
			p += byteFreq(byte(c))
		}
	}
	return min(p, 1)
}

// seqProb estimates the chance that seq occurs at a position of source code.
func seqProb(seq []byteSet) float64 {
	p := 1.0
	for _, s := range seq {
		p *= s.prob()
	}
	return p
}

// seqInfo is what requiredSeq knows of a part of a pattern: the classes every match of it
// starts with (pre) and ends with (suf), each at most maxSeq long, and the most selective
// run of classes every match holds (best). When exact, every match is exactly one byte
// of each class of pre, in order (and suf is pre).
//
// When star, the part ends with a repetition, possibly empty, of the one-byte class
// starSet ("[a-z]*"), and before is what every match of the part before it ends with:
// then whatever follows starts right after a byte of before or of starSet, so in
// "[A-Z][a-z]*[0-9]{3}" a match holds "[A-Za-z][0-9][0-9][0-9]". A part that is just such
// a repetition is bare.
type seqInfo struct {
	exact    bool
	pre, suf []byteSet
	best     []byteSet

	star    bool
	bare    bool
	starSet byteSet
	before  []byteSet
}

// opaque says nothing about a part's matches: it breaks any run of classes through it.
var opaque = seqInfo{}

// requiredSeq returns a sequence of ASCII byte classes, at most maxSeq, that every match
// of re holds on consecutive bytes, the one least likely to occur by [seqProb]; nil if it
// finds none. The classes leave out '\n', which no match within a line holds.
func requiredSeq(re *syntax.Regexp) []byteSet {
	return seqOf(re).best
}

func seqOf(re *syntax.Regexp) seqInfo {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		// Zero-width: what comes before and after stays adjacent.
		return seqInfo{exact: true}
	case syntax.OpLiteral:
		info := seqInfo{exact: true}
		for _, r := range re.Rune {
			info = seqConcat(info, literalSet(r, re.Flags&syntax.FoldCase != 0))
		}
		return info
	case syntax.OpCharClass:
		var s byteSet
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= 0x80 {
				// A rune of several bytes: the class is not one byte.
				return opaque
			}
			for c := lo; c <= hi; c++ {
				if c != '\n' {
					s.add(byte(c))
				}
			}
		}
		return single(s)
	case syntax.OpCapture:
		return seqOf(re.Sub[0])
	case syntax.OpConcat:
		info := seqInfo{exact: true}
		for _, sub := range re.Sub {
			info = seqConcat(info, seqOf(sub))
		}
		return info
	case syntax.OpPlus:
		return seqRepeat(seqOf(re.Sub[0]), 1, -1)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return seqRepeat(seqOf(re.Sub[0]), re.Min, re.Max)
		}
		return optional(seqOf(re.Sub[0]))
	case syntax.OpStar, syntax.OpQuest:
		return optional(seqOf(re.Sub[0]))
	}
	// Alternation, any character, no match: nothing required, or nothing of one byte.
	return opaque
}

// optional returns the seqInfo of x repeated any number of times, none included: a star
// when x is one byte of a class, otherwise opaque.
func optional(x seqInfo) seqInfo {
	if x.exact && len(x.pre) == 1 {
		return seqInfo{star: true, bare: true, starSet: x.pre[0]}
	}
	return opaque
}

// single is the seqInfo of a one-byte class; an empty class (which no match can hold in
// a line, as "\n") is opaque, which is always true.
func single(s byteSet) seqInfo {
	if s == (byteSet{}) {
		return opaque
	}
	seq := []byteSet{s}
	return seqInfo{exact: true, pre: seq, suf: seq, best: seq}
}

// literalSet returns the seqInfo of the rune r of a literal: its byte, and when folding
// its other case; opaque for a rune outside ASCII or one that folds to one outside
// ASCII (k to the Kelvin sign, s to the long s).
func literalSet(r rune, fold bool) seqInfo {
	if r >= 0x80 || r == '\n' {
		return opaque
	}
	var s byteSet
	s.add(byte(r))
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f >= 0x80 {
				return opaque
			}
			s.add(byte(f))
		}
	}
	return single(s)
}

// seqConcat returns the seqInfo of a followed by b.
func seqConcat(a, b seqInfo) seqInfo {
	var out seqInfo
	if b.bare {
		// a followed by a repetition of one class: it ends in a's last byte or that
		// class's, and what follows comes after a whole or after the class.
		out = seqInfo{pre: a.pre, best: a.best, star: true, starSet: b.starSet, before: a.suf}
		if n := len(a.suf); n > 0 {
			last := a.suf[n-1]
			last[0] |= b.starSet[0]
			last[1] |= b.starSet[1]
			out.suf = []byteSet{last}
		}
		return out
	}
	join := append(append([]byteSet(nil), a.suf...), b.pre...)
	out.best = better(better(a.best, b.best), bestWindow(join))
	if a.star && len(b.pre) > 0 {
		first := b.pre[0]
		first[0] |= a.starSet[0]
		first[1] |= a.starSet[1]
		after := append(append([]byteSet(nil), a.before...), first)
		out.best = better(out.best, bestWindow(after))
	}
	switch {
	case a.exact && b.exact:
		if len(join) <= maxSeq {
			out.exact, out.pre, out.suf = true, join, join
			return out
		}
		out.pre, out.suf = join[:maxSeq], join[len(join)-maxSeq:]
	case a.exact:
		out.pre, out.suf = join[:min(len(join), maxSeq)], b.suf
	case b.exact:
		out.pre, out.suf = a.pre, join[max(0, len(join)-maxSeq):]
	default:
		out.pre, out.suf = a.pre, b.suf
	}
	return out
}

// seqRepeat returns the seqInfo of x repeated from lo to hi times (hi < 0: no limit),
// lo >= 1. Past maxSeq+1 copies nothing changes but the length, so at most that many
// are joined.
func seqRepeat(x seqInfo, lo, hi int) seqInfo {
	r := x
	for i := 1; i < min(lo, maxSeq+1); i++ {
		r = seqConcat(r, x)
	}
	if lo > maxSeq+1 && r.exact {
		// Too long to be exact, however short x is: only its ends are known.
		r.exact = false
	}
	if hi != lo {
		// More copies may follow: the first lo start every match and the last lo
		// end it, but the whole is not exact.
		r.exact = false
	}
	return r
}

// bestWindow returns the window of maxSeq consecutive classes of seq (all of it when
// shorter) least likely to occur, or nil for an empty seq.
func bestWindow(seq []byteSet) []byteSet {
	if len(seq) <= maxSeq {
		return seq
	}
	var best []byteSet
	for i := 0; i+maxSeq <= len(seq); i++ {
		best = better(best, seq[i:i+maxSeq])
	}
	return best
}

// better returns the more selective of two sequences; nil is the least.
func better(a, b []byteSet) []byteSet {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	case seqProb(b) < seqProb(a):
		return b
	}
	return a
}
