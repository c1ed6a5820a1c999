package search

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// dfa answers one question fast: which is the first line of a buffer that holds a match?
// It is a deterministic automaton built lazily from the regular expression's program, as
// Thompson described and RE2 and ripgrep do: each state is the set of program positions
// the matcher can be at, computed the first time an input character leads there, and
// cached, so that on most bytes a search costs one table lookup. Go's regexp package
// simulates the automaton afresh at every byte instead, which is many times slower.
//
// The automaton runs over bytes for ASCII and decodes other runes (invalid UTF-8 counts
// as U+FFFD, as in regexp). Lines are matched one at a time, each as a whole text: "^",
// "\A", "$" and "\z" match at its ends, which is what matching each line with regexp
// does. Existence of a match is all it reports; regexp finds where, when that matters.
//
// A dfa is not safe for concurrent use: each search worker owns one. Its cache is bounded
// (maxStates); when full it is dropped and rebuilt as needed.
type dfa struct {
	prog    *syntax.Prog
	states  map[string]*dstate
	start   *dstate // at the beginning of a line
	matched *dstate // a match was seen: the line matches

	closure, next sparse // scratch
	key           []byte
}

// maxDFAProg is the largest program (in instructions) worth a DFA: each new state costs
// time in proportion to it, and large programs tend to have many states.
const maxDFAProg = 1500

// maxStates bounds the states a dfa caches (about 1 KiB each).
const maxStates = 2048

// dstate is a state of the automaton: the program positions reached after the input so
// far (before following the empty-width steps that depend on the next character), and
// whether that input is at a line start and ended in a word character.
type dstate struct {
	next  [128]*dstate     // by ASCII byte; nil until computed
	other map[rune]*dstate // by non-ASCII rune
	pcs   []uint32         // program positions
	bol   bool             // at the beginning of the line
	word  bool             // the last character was a word character (\w)
	end   int8             // a match ends at the end of the line here: 0 unknown, 1 yes, -1 no
	match bool             // this is the matched state
}

// newDFA builds the automaton for pattern, compiled with the same flags as regexp uses
// (Perl syntax, plus "(?i)" or "(?s)" given in the pattern itself).
func newDFA(pattern string) (*dfa, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	d := &dfa{prog: prog}
	d.closure.init(len(prog.Inst))
	d.next.init(len(prog.Inst))
	d.reset()
	return d, nil
}

// clone returns a dfa for the same program with an empty cache of its own.
func (d *dfa) clone() *dfa {
	c := &dfa{prog: d.prog}
	c.closure.init(len(d.prog.Inst))
	c.next.init(len(d.prog.Inst))
	c.reset()
	return c
}

func (d *dfa) reset() {
	d.states = make(map[string]*dstate)
	d.matched = &dstate{match: true}
	for i := range d.matched.next {
		d.matched.next[i] = d.matched
	}
	d.start = d.intern(nil, true, false)
}

// intern returns the cached state for pcs (sorted) and flags, creating it if needed.
func (d *dfa) intern(pcs []uint32, bol, word bool) *dstate {
	k := d.key[:0]
	k = append(k, b2u(bol)|b2u(word)<<1)
	for _, pc := range pcs {
		k = append(k, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	d.key = k
	if s, ok := d.states[string(k)]; ok {
		return s
	}
	if len(d.states) >= maxStates {
		// Drop the cache. States already handed out stay correct; they are just no
		// longer shared, and go away once the search moves past them.
		d.states = make(map[string]*dstate)
	}
	s := &dstate{pcs: slices.Clone(pcs), bol: bol, word: word}
	d.states[string(k)] = s
	return s
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// firstLine returns the offset of a byte within the first line of b that holds a match,
// or -1. Lines end with '\n'; the last one may end with the buffer.
func (d *dfa) firstLine(b []byte) int {
	s := d.start
	for i := 0; i < len(b); i++ {
		c := b[i]
		var n *dstate
		if c < utf8.RuneSelf {
			n = s.next[c]
			if n == nil {
				n = d.step(s, rune(c))
				s.next[c] = n
			}
		} else {
			r, size := utf8.DecodeRune(b[i:])
			n = s.other[r]
			if n == nil {
				n = d.step(s, r)
				if s.other == nil {
					s.other = make(map[rune]*dstate)
				}
				if len(s.other) < 256 {
					s.other[r] = n
				}
			}
			i += size - 1
		}
		if n.match {
			return i
		}
		s = n
	}
	if len(b) > 0 && b[len(b)-1] != '\n' && d.matchesAtEnd(s) {
		return len(b) - 1
	}
	return -1
}

// matchLine reports whether the line b (without its newline) holds a match.
func (d *dfa) matchLine(b []byte) bool {
	if len(b) == 0 {
		return d.matchesAtEnd(d.start)
	}
	return d.firstLine(b) >= 0
}

// step returns the state after reading r in s; '\n' ends the line, so it leads to the
// matched state or to the start of the next line.
func (d *dfa) step(s *dstate, r rune) *dstate {
	if r == '\n' {
		if d.matchesAtEnd(s) {
			return d.matched
		}
		return d.start
	}
	w := isWordRune(r)
	var flag syntax.EmptyOp
	if s.bol {
		flag |= syntax.EmptyBeginLine | syntax.EmptyBeginText
	}
	if s.word != w {
		flag |= syntax.EmptyWordBoundary
	} else {
		flag |= syntax.EmptyNoWordBoundary
	}
	if d.close(s, flag) {
		return d.matched
	}
	d.next.clear()
	for _, pc := range d.closure.dense {
		in := &d.prog.Inst[pc]
		var ok bool
		switch in.Op {
		case syntax.InstRune:
			ok = in.MatchRune(r)
		case syntax.InstRune1:
			ok = r == in.Rune[0]
		case syntax.InstRuneAny:
			ok = true
		case syntax.InstRuneAnyNotNL:
			ok = r != '\n'
		}
		if ok {
			d.next.add(in.Out)
		}
	}
	pcs := d.next.dense
	slices.Sort(pcs)
	return d.intern(pcs, false, w)
}

// matchesAtEnd reports whether a match ends where the line ends, in state s.
func (d *dfa) matchesAtEnd(s *dstate) bool {
	if s.end == 0 {
		flag := syntax.EmptyEndLine | syntax.EmptyEndText
		if s.bol {
			flag |= syntax.EmptyBeginLine | syntax.EmptyBeginText
		}
		if s.word {
			flag |= syntax.EmptyWordBoundary
		} else {
			flag |= syntax.EmptyNoWordBoundary
		}
		s.end = -1
		if d.close(s, flag) {
			s.end = 1
		}
	}
	return s.end > 0
}

// close fills d.closure with the positions reachable from s's and from the program's
// start (a match may begin anywhere) through empty steps allowed by flag. It reports
// whether a match is among them.
func (d *dfa) close(s *dstate, flag syntax.EmptyOp) bool {
	d.closure.clear()
	matched := d.add(uint32(d.prog.Start), flag)
	for _, pc := range s.pcs {
		if d.add(pc, flag) {
			matched = true
		}
	}
	return matched
}

func (d *dfa) add(pc uint32, flag syntax.EmptyOp) bool {
	if d.closure.has(pc) {
		return false
	}
	d.closure.add(pc)
	in := &d.prog.Inst[pc]
	switch in.Op {
	case syntax.InstMatch:
		return true
	case syntax.InstAlt, syntax.InstAltMatch:
		a := d.add(in.Out, flag)
		b := d.add(in.Arg, flag)
		return a || b
	case syntax.InstCapture, syntax.InstNop:
		return d.add(in.Out, flag)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(in.Arg)&^flag == 0 {
			return d.add(in.Out, flag)
		}
	}
	return false
}

// isWordRune is regexp's \w: ASCII letters, digits and underscore.
func isWordRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
}

// sparse is a set of small integers with constant-time clear, after Briggs and Torczon.
type sparse struct {
	dense  []uint32
	sparse []uint32
}

func (s *sparse) init(n int) {
	s.dense = make([]uint32, 0, n)
	s.sparse = make([]uint32, n)
}

func (s *sparse) clear() { s.dense = s.dense[:0] }

func (s *sparse) has(x uint32) bool {
	i := s.sparse[x]
	return int(i) < len(s.dense) && s.dense[i] == x
}

func (s *sparse) add(x uint32) {
	if !s.has(x) {
		s.sparse[x] = uint32(len(s.dense))
		s.dense = append(s.dense, x)
	}
}
