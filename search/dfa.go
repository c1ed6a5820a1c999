package search

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"unicode/utf8"
	"unsafe"
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
// A dfa is not safe for concurrent use: each search worker owns one.
//
// Its cache holds at most budget bytes. Some patterns have exponentially many states
// ("a[ab]{25}c" must remember the last 26 bytes), so a cache that only grows takes the
// memory of the input. When the cache is full it is flushed whole, as RE2 does: every
// state goes, the start state too, so nothing old stays reachable, and the search goes on
// from the state it is in. When flushes come one after another with little input read in
// between, the automaton is no faster than simulating the program, and it gives up for
// the rest of the file (firstLine returns gaveUp); the caller then matches with regexp.
type dfa struct {
	prog    *syntax.Prog
	classes *byteClasses // shared by clones
	budget  int          // bytes the cache may hold
	used    int          // bytes the cache holds
	states  map[string]*dstate
	start   *dstate // at the beginning of a line
	matched *dstate // a match was seen: the line matches

	// The transitions on ASCII bytes, one row of a cell per byte class for each state,
	// in one table: a cell holds the next state's row offset (its index times the
	// classes), so that a byte costs one load that depends on the one before, where a
	// pointer to a state and then its own table cost two. Row 0 is no state (a cell of
	// 0 is a transition not computed yet) and row 1 is the matched state, so one
	// comparison tells both from the rest. byRow finds a state by its row. A row has a
	// cell more than there are classes, always 0: the class of every non-ASCII byte
	// (column), whose transitions are by rune, in dstate.other.
	trans  []int32
	byRow  []*dstate
	stride int32      // cells in a row
	column [256]uint8 // a byte's cell in a row

	flushes int  // flushes so far (a generation count)
	slow    int  // flushes in a row that came after little progress
	gaveUp  bool // the cache thrashes: regexp matches for the rest of the file
	stopped int  // where firstLine gave up: the start of the line it was in
	since   int  // bytes read since the last flush, counted at each new state
	patient bool // never give up (tests of flushing)

	closure, next sparse // scratch
	key           []byte
}

// maxDFAProg is the largest program (in instructions) worth a DFA: each new state costs
// time in proportion to it, and large programs tend to have many states.
const maxDFAProg = 1500

// dfaBudget is the memory all of one search's automatons may hold together; each worker's
// gets an equal share, but at least minDFABudget. RE2's default is 8 MiB per automaton.
const (
	dfaBudget    = 16 << 20
	minDFABudget = 1 << 20
)

// Giving up: a flush after fewer than slowBytes input bytes per cached state counts as
// slow progress, and maxSlowFlushes of those in a row end the automaton's use for a file.
const (
	slowBytes      = 10
	maxSlowFlushes = 3
)

// gaveUp is what firstLine returns when the automaton gave up.
const gaveUp = -2

// dstate is a state of the automaton: the program positions reached after the input so
// far (before following the empty-width steps that depend on the next character), and
// whether that input is at a line start and ended in a word character.
type dstate struct {
	row   int32            // offset of its row in dfa.trans
	other map[rune]*dstate // by non-ASCII rune
	pcs   []uint32         // program positions
	bol   bool             // at the beginning of the line
	word  bool             // the last character was a word character (\w)
	end   int8             // a match ends at the end of the line here: 0 unknown, 1 yes, -1 no
	match bool             // this is the matched state
}

// Bytes each cached thing costs, roughly: a state with its key in the map, a pointer of
// its table, a program position (in pcs and in the key), an entry of other.
const (
	stateCost = int(unsafe.Sizeof(dstate{})) + 64 + int(unsafe.Sizeof((*dstate)(nil))) // and its place in byRow
	cellCost  = int(unsafe.Sizeof(int32(0)))
	pcCost    = 8
	otherCost = 48
	maxOther  = 256 // non-ASCII transitions cached per state
)

// byteClasses partitions the ASCII bytes into classes that no instruction of the program
// and no word-boundary test tells apart, so that a state's table has one entry per class
// rather than per byte: "[aeiou].{14}[xyz][0-9]" needs 5 entries, not 128.
type byteClasses struct {
	of  [utf8.RuneSelf]uint8 // class by byte
	rep []byte               // a byte of each class
}

func newByteClasses(prog *syntax.Prog) *byteClasses {
	var runeInsts []*syntax.Inst
	for i := range prog.Inst {
		switch prog.Inst[i].Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			runeInsts = append(runeInsts, &prog.Inst[i])
		}
	}
	bc := &byteClasses{}
	seen := map[string]uint8{}
	sig := make([]byte, 0, 2+len(runeInsts))
	for c := range rune(utf8.RuneSelf) {
		sig = sig[:0]
		sig = append(sig, b2u(c == '\n'), b2u(isWordRune(c)))
		for _, in := range runeInsts {
			sig = append(sig, b2u(instMatches(in, c)))
		}
		k, ok := seen[string(sig)]
		if !ok {
			k = uint8(len(bc.rep))
			seen[string(sig)] = k
			bc.rep = append(bc.rep, byte(c))
		}
		bc.of[c] = k
	}
	return bc
}

// instMatches reports whether the rune instruction in matches r.
func instMatches(in *syntax.Inst, r rune) bool {
	switch in.Op {
	case syntax.InstRune:
		return in.MatchRune(r)
	case syntax.InstRune1:
		return r == in.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// newDFA builds the automaton for pattern, compiled with the same flags as regexp uses
// (Perl syntax, plus "(?i)" or "(?s)" given in the pattern itself), with a cache of
// dfaBudget bytes.
func newDFA(pattern string) (*dfa, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	var classes *byteClasses
	if len(prog.Inst) <= maxDFAProg {
		classes = newByteClasses(prog)
	}
	return newDFAProg(prog, classes, dfaBudget), nil
}

func newDFAProg(prog *syntax.Prog, classes *byteClasses, budget int) *dfa {
	if classes == nil {
		classes = newByteClasses(prog)
	}
	d := &dfa{prog: prog, classes: classes, budget: budget, stride: int32(len(classes.rep) + 1)}
	for c := range d.column {
		d.column[c] = uint8(len(classes.rep)) // the column of non-ASCII bytes
		if c < utf8.RuneSelf {
			d.column[c] = classes.of[c]
		}
	}
	d.closure.init(len(prog.Inst))
	d.next.init(len(prog.Inst))
	d.reset()
	return d
}

// clone returns a dfa for the same program with an empty cache of its own, of budget
// bytes.
func (d *dfa) clone(budget int) *dfa {
	return newDFAProg(d.prog, d.classes, budget)
}

// reset empties the cache: afterwards no state from before is reachable from the dfa.
func (d *dfa) reset() {
	d.states = make(map[string]*dstate)
	d.used = 0
	n := int(d.stride)
	// The table keeps its room: its size is bounded by the budget.
	d.trans = append(d.trans[:0], make([]int32, 2*n)...)
	d.matched = &dstate{match: true, row: d.stride}
	for i := range n - 1 {
		d.trans[n+i] = d.stride
	}
	clear(d.byRow)
	d.byRow = append(d.byRow[:0], nil, d.matched)
	d.start = d.intern(nil, true, false)
}

// newFile forgets that the automaton gave up: each file gets a fresh chance.
func (d *dfa) newFile() {
	d.gaveUp, d.slow = false, 0
}

// intern returns the cached state for pcs (sorted) and flags, creating it if needed; when
// the new state would not fit in the budget, the cache is flushed first.
func (d *dfa) intern(pcs []uint32, bol, word bool) *dstate {
	k := d.makeKey(pcs, bol, word)
	if s, ok := d.states[string(k)]; ok {
		return s
	}
	cost := stateCost + int(d.stride)*cellCost + len(pcs)*pcCost
	if d.used+cost > d.budget && len(d.states) > 0 {
		d.flush()
		k = d.makeKey(pcs, bol, word) // reset built the start state in d.key
	}
	s := &dstate{row: int32(len(d.trans)), pcs: slices.Clone(pcs), bol: bol, word: word}
	d.trans = append(d.trans, make([]int32, d.stride)...)
	d.byRow = append(d.byRow, s)
	d.states[string(k)] = s
	d.used += cost
	return s
}

// flush empties the cache and keeps count of how much input the cache lasted for.
func (d *dfa) flush() {
	if d.since < slowBytes*len(d.states) {
		d.slow++
		if d.slow >= maxSlowFlushes && !d.patient {
			d.gaveUp = true
		}
	} else {
		d.slow = 0
	}
	d.since = 0
	d.flushes++
	d.reset()
}

func (d *dfa) makeKey(pcs []uint32, bol, word bool) []byte {
	k := d.key[:0]
	k = append(k, b2u(bol)|b2u(word)<<1)
	for _, pc := range pcs {
		k = append(k, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	d.key = k
	return k
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// firstLine returns the offset of a byte within the first line of b that holds a match,
// or -1. Lines end with '\n'; the last one may end with the buffer. It returns gaveUp,
// with d.stopped set to the start of the line it was in, when the automaton gives up.
func (d *dfa) firstLine(b []byte) int {
	if d.gaveUp {
		d.stopped = 0
		return gaveUp
	}
	last := 0 // where the input was when d.since was last brought up to date
	col := &d.column
	stride := d.stride
	t := d.trans
	s := d.start.row
	i := 0
	for {
		// Most bytes: ASCII, with the transition computed, to a state that is not the
		// match. Nothing else is looked at; the rest (a cell of 0 or of the matched
		// state, and every non-ASCII byte's) is left to the steps below.
		for i < len(b) {
			n := t[s+int32(col[b[i]])]
			if n <= stride {
				break
			}
			s = n
			i++
		}
		if i >= len(b) {
			break
		}
		cur := d.byRow[s/stride]
		c := b[i]
		var n *dstate
		if c < utf8.RuneSelf {
			if next := t[s+int32(col[c])]; next == stride {
				d.since += i - last
				return i
			}
			d.since += i - last
			last = i
			flushes := d.flushes
			n = d.step(cur, rune(c))
			if d.flushes == flushes {
				// A flush made a new table, where cur's row is another state's.
				d.trans[s+int32(col[c])] = n.row
			}
		} else {
			r, size := utf8.DecodeRune(b[i:])
			n = cur.other[r]
			if n == nil {
				d.since += i - last
				last = i
				flushes := d.flushes
				n = d.step(cur, r)
				if d.flushes == flushes {
					if cur.other == nil {
						cur.other = make(map[rune]*dstate)
					}
					if len(cur.other) < maxOther && d.used+otherCost <= d.budget {
						cur.other[r] = n
						d.used += otherCost
					}
				}
			}
			i += size - 1
		}
		if d.gaveUp {
			d.stopped = bytes.LastIndexByte(b[:i], '\n') + 1
			if c == '\n' && !n.match {
				d.stopped = i + 1
			}
			return gaveUp
		}
		if n.match {
			d.since += i - last
			return i
		}
		t = d.trans // a step may have grown the table, or flushed it
		s = n.row
		i++
	}
	d.since += len(b) - last
	if len(b) > 0 && b[len(b)-1] != '\n' && d.matchesAtEnd(d.byRow[s/stride]) {
		return len(b) - 1
	}
	return -1
}

// matchLine reports whether the line b (without its newline) holds a match. ok is false
// when the automaton gave up.
func (d *dfa) matchLine(b []byte) (match, ok bool) {
	if len(b) == 0 {
		return d.matchesAtEnd(d.start), true
	}
	i := d.firstLine(b)
	return i >= 0, i != gaveUp
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
		if in := &d.prog.Inst[pc]; instMatches(in, r) {
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
