package search

import (
	"bytes"
	"errors"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"unicode/utf8"
)

// A PatternError reports a regular expression or glob that does not parse. Msg is the
// parser's message.
type PatternError struct {
	Kind    string // "regex", "glob" or "type"
	Pattern string
	Err     error
}

func (e *PatternError) Error() string {
	if e.Pattern == "" {
		return "invalid " + e.Kind + ": " + e.Err.Error()
	}
	return "invalid " + e.Kind + " " + strconv.Quote(e.Pattern) + ": " + e.Err.Error()
}

func (e *PatternError) Unwrap() error { return e.Err }

var errNewline = errors.New("every match holds a newline, which a search line by line never sees; search with multiline set for matches across lines")

// matcher finds the lines that match a pattern in a buffer of whole lines.
//
// The fast path is a literal prefilter: a literal every match must contain is looked for in
// the whole buffer with a vectorized search, and the lines around each hit are confirmed
// with a lazy DFA (see [dfa]); a pattern that is just the literal needs no confirming.
// Patterns with no such literal but a selective run of byte classes that every match holds
// ("[0-9]{3}", see [requiredSeq]) are prefiltered the same way on that run; the others
// run the DFA over the whole buffer. In multiline mode,
// where matches span lines, Go's regexp runs over the whole file.
type matcher struct {
	line      *regexp.Regexp // matches within one line (no trailing newline); validates
	buf       *regexp.Regexp // the same pattern over many lines, (?m): multiline mode
	lit       []byte         // required literal, lower case when fold; nil if none
	fold      bool           // lit is compared ignoring ASCII case
	find      *finder        // finds lit
	pure      bool           // the pattern is exactly lit: a hit is a match
	seq       *seqFinder     // with no lit: finds a run of byte classes every match holds
	dfa       *dfa           // line mode: the automaton each searcher clones
	spanLines bool           // multiline mode: matches may span lines
	behind    bool           // the pattern looks at the character before a position (^, \b)
}

// compile builds a matcher for pattern.
func compile(pattern string, ignoreCase, multiline bool) (*matcher, error) {
	flags := ""
	if ignoreCase {
		flags += "i"
	}
	if multiline {
		flags += "s"
	}
	// Check the pattern as given first, so that the parser's message quotes it unchanged.
	if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: err}
	}
	src := pattern
	if flags != "" {
		src = "(?" + flags + ")" + pattern
	}
	line, err := regexp.Compile(src)
	if err != nil {
		return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: err}
	}
	bufRe, err := regexp.Compile("(?m" + flags + ")" + pattern)
	if err != nil {
		return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: err}
	}
	m := &matcher{line: line, buf: bufRe, spanLines: multiline}
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: err}
	}
	if multiline {
		// As in ripgrep, a pattern that cannot match a newline is searched line by line
		// even in multiline mode: its matches are lines, and so are its counts.
		prog, err := syntax.Compile(tree.Simplify())
		if err != nil {
			return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: err}
		}
		m.spanLines, m.behind = progInfo(prog)
		if !m.spanLines {
			// "\A", "\z" and "^", "$" with (?-m) anchor at the ends of the file, not of
			// each line: searched line by line, "(?-m)^baz" would match baz on any line
			// (ripgrep regression 1878). Such a pattern runs over the whole file.
			anchored, err := textAnchored("(?m" + flags + ")" + pattern)
			if err != nil {
				return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: err}
			}
			m.spanLines = anchored
		}
	}
	if !m.spanLines {
		if m.dfa, err = newDFA(src); err != nil {
			return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: err}
		}
		if len(m.dfa.prog.Inst) > maxDFAProg {
			m.dfa = nil // too big to pay off: regexp matches line by line
		}
	}
	runes, fold := required(tree)
	if slices.Contains(runes, utf8.RuneError) {
		// regexp reads each byte that is not UTF-8 as U+FFFD, which the finder, looking
		// for the bytes EF BF BD, would not find: no literal, the automaton decides.
		runes, fold = nil, false
	}
	if fold {
		m.lit = foldLiteral(runes)
		m.fold = true
		m.pure = tree.Op == syntax.OpLiteral && len(m.lit) == len(runes)
	} else if len(runes) > 0 {
		m.lit = []byte(string(runes))
		m.pure = tree.Op == syntax.OpLiteral && tree.Flags&syntax.FoldCase == 0
	}
	if len(m.lit) == 0 {
		m.lit = nil
		m.pure = false
	} else {
		m.find = newFinder(m.lit, m.fold)
	}
	if !m.spanLines && bytes.IndexByte(m.lit, '\n') >= 0 {
		// Every match holds a newline, and a line-by-line search never sees one: refuse
		// it, as ripgrep does, rather than match a literal across the end of a line.
		return nil, &PatternError{Kind: "regex", Pattern: pattern, Err: errNewline}
	}
	if m.lit == nil && !m.spanLines {
		if seq := requiredSeq(tree); seq != nil && seqProb(seq) <= maxSeqProb {
			m.seq = newSeqFinder(seq)
		}
	}
	return m, nil
}

// textAnchored reports whether the pattern src, compiled as the multiline search runs it,
// tests the start or the end of the whole text.
func textAnchored(src string) (bool, error) {
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return false, err
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return false, err
	}
	for i := range prog.Inst {
		in := &prog.Inst[i]
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
			return true, nil
		}
	}
	return false, nil
}

// progInfo reports whether prog can match a newline, and whether it has an empty-width
// test that looks at the character before a position.
func progInfo(prog *syntax.Prog) (newline, behind bool) {
	for i := range prog.Inst {
		in := &prog.Inst[i]
		if instMatches(in, '\n') {
			newline = true
		}
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&(syntax.EmptyBeginLine|syntax.EmptyBeginText|syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
			behind = true
		}
	}
	return newline, behind
}

// required returns a literal that every match of re contains, the longest it can find, and
// whether it is to be compared ignoring case.
func required(re *syntax.Regexp) ([]rune, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return re.Rune, re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []rune
		var bestFold bool
		consider := func(r []rune, fold bool) {
			if sr, sb := score(r, fold), score(best, bestFold); sr > sb || sr == sb && sr > 0 && rarity(r) < rarity(best) {
				best, bestFold = r, fold
			}
		}
		// Adjacent literals join into one longer literal.
		var run []rune
		runFold := false
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral {
				f := sub.Flags&syntax.FoldCase != 0
				if len(run) > 0 && f != runFold {
					consider(run, runFold)
					run = nil
				}
				run = append(run[:len(run):len(run)], sub.Rune...)
				runFold = f
				continue
			}
			if len(run) > 0 {
				consider(run, runFold)
				run = nil
			}
			consider(required(sub))
		}
		if len(run) > 0 {
			consider(run, runFold)
		}
		return best, bestFold
	}
	return nil, false
}

// score rates a literal as a prefilter: longer is better; a case-folded one is worth only
// the part of it the fold search can use.
func score(r []rune, fold bool) int {
	if fold {
		return len(foldLiteral(r))
	}
	n := 0
	for _, c := range r {
		n += utf8.RuneLen(c)
	}
	return n
}

// rarity breaks ties between literals of one score: the one whose rarest byte is rarer
// (by [byteRank]) stops the search less often. In "[ab]*a[ab]{25}c" it picks "c".
func rarity(r []rune) int {
	best := 256
	for _, b := range []byte(string(r)) {
		best = min(best, int(byteRank[b]))
	}
	return best
}

// foldLiteral returns the longest run of r that an ASCII case-insensitive search can find
// without missing a match, lower-cased. Non-ASCII runes are left out, and so are k and s,
// which fold to the Kelvin sign and the long s outside ASCII.
func foldLiteral(r []rune) []byte {
	var best, cur []byte
	for _, c := range r {
		lc := c | 0x20
		if c >= utf8.RuneSelf || lc == 'k' || lc == 's' {
			if len(cur) > len(best) {
				best = cur
			}
			cur = nil
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		cur = append(cur, byte(c))
	}
	if len(cur) > len(best) {
		best = cur
	}
	return best
}

func equalFold(b, lower []byte) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// nextLine finds the first line of b (whole lines, the last one possibly without a
// newline) that holds a match, and returns its bounds: start, and end just past its
// newline. ok is false when no line of b matches. When the prefilter ignores case, low
// d is the caller's clone of m.dfa, f the finder for m.lit to use. When d gives up, regexp
// matches line by line instead.
func (m *matcher) nextLine(b []byte, d *dfa, f *finder) (start, end int, ok bool) {
	if d != nil && d.gaveUp {
		d = nil
	}
	p := 0
	for p < len(b) {
		var hit int
		if m.lit != nil {
			i := f.index(b[p:])
			if i < 0 {
				return 0, 0, false
			}
			hit = p + i
		} else if m.seq != nil {
			i := m.seq.index(b[p:])
			if i < 0 {
				return 0, 0, false
			}
			hit = p + i
		} else if d != nil {
			i := d.firstLine(b[p:])
			if i == gaveUp {
				p += d.stopped
				d = nil
				continue
			}
			if i < 0 {
				return 0, 0, false
			}
			hit = p + i
		} else {
			end = lineEnd(b, p)
			if m.line.Match(trimNL(b[p:end])) {
				return p, end, true
			}
			p = end
			continue
		}
		start = bytes.LastIndexByte(b[p:hit], '\n') + 1 + p
		end = lineEnd(b, hit)
		if m.pure || m.lit == nil && m.seq == nil {
			return start, end, true
		}
		line := trimNL(b[start:end])
		if d != nil {
			match, ok := d.matchLine(line)
			if ok && match {
				return start, end, true
			}
			if ok {
				p = end
				continue
			}
			d = nil
		}
		if m.line.Match(line) {
			return start, end, true
		}
		p = end
	}
	return 0, 0, false
}

func trimNL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}
