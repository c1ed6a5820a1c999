package search

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// seqString writes a sequence of classes as a pattern: each class in brackets, its
// bytes in order with runs of three or more as ranges.
func seqString(seq []byteSet) string {
	var b strings.Builder
	for _, s := range seq {
		b.WriteByte('[')
		for c := 0; c < 0x80; c++ {
			if !s.has(byte(c)) {
				continue
			}
			e := c
			for e+1 < 0x80 && s.has(byte(e+1)) {
				e++
			}
			b.WriteByte(byte(c))
			if e >= c+2 {
				b.WriteByte('-')
			}
			if e > c {
				b.WriteByte(byte(e))
			}
			c = e
		}
		b.WriteByte(']')
	}
	return b.String()
}

func TestRequiredSeq(t *testing.T) {
	for _, c := range []struct {
		pattern, want string // want "" for none
	}{
		{`[A-Z][a-z]*[0-9]{3}`, `[A-Za-z][0-9][0-9][0-9]`},
		{`[A-Z][a-z]?[0-9]{3}`, `[A-Za-z][0-9][0-9][0-9]`},
		{`[A-Z][a-z]{0,5}[0-9]{3}`, `[A-Za-z][0-9][0-9][0-9]`},
		{`[0-9]{3}[a-z]*[A-Z]`, `[0-9][0-9][0-9][A-Za-z]`},
		{`#[a-z]*[0-9]*[A-Z]`, `[#]`}, // one star is followed, not two
		{`#[a-z]*[A-Z]`, `[#][A-Za-z]`},
		{`[0-9][a-z]*`, `[0-9]`},
		{`[a-z]*[0-9]`, `[0-9]`},
		{`(.[a-z]*)[0-9]`, `[0-9]`},
		{`([a-z]*){2}[0-9]`, `[0-9]`},
		{`#(.[a-z]*)[0-9]`, `[#]`},
		{`#(\.[a-z]*)[0-9]`, `[#][.]`}, // nor a star inside a group
		{`[0-9]{3}`, `[0-9][0-9][0-9]`},
		{`[0-9]{2,}`, `[0-9][0-9]`},
		{`[0-9]+`, `[0-9]`},
		{`[0-9]{9}`, `[0-9][0-9][0-9][0-9]`},
		{`[A-Z][a-z]`, `[A-Z][a-z]`},
		{`[A-Z][0-9]`, `[A-Z][0-9]`},
		{`\d\d:\d\d`, `[0-9][0-9][:][0-9]`}, // the window without a common first digit
		{`x[0-9]`, `[x][0-9]`},
		{`(?i)x[0-9]`, `[Xx][0-9]`},
		{`(?i)k[0-9]`, `[0-9]`}, // k folds to the Kelvin sign
		{`(?i)[a-z][0-9]`, `[0-9]`},
		{`(?i)[0-9]`, `[0-9]`},
		{`é[0-9]`, `[0-9]`},
		{`[0-9é]`, ``},
		{`.`, ``},
		{`a*`, ``},
		{`[0-9]?`, ``},
		{`[0-9]*[a-z]`, `[a-z]`},
		{`(a|b)`, `[ab]`},
		{`(ab|cd)`, ``},
		{`^[0-9]\b[a-z]$`, `[0-9][a-z]`},
		{`([0-9][a-z])+`, `[0-9][a-z]`},
		{`([0-9][a-z]){2,}`, `[0-9][a-z][0-9][a-z]`},
		{`([0-9].)+`, `[0-9]`},
		{`(.[0-9])+`, `[0-9]`},
		{`(.[0-9]\.)+`, `[0-9][.]`},
		{`(.[0-9]\.){2}`, `[0-9][.]`},
		{`(\.[0-9].){2}`, `[.][0-9]`},
		{`(\.[0-9]){2}`, `[.][0-9][.][0-9]`},
		{`[^\n]`, ``}, // and every rune outside ASCII
		{`[\x00-\x7f]`, "[\x00-\t\v-\x7f]"},
		{`\n`, ``},
		{`(?:)`, ``},
		{`(^){3}`, ``},
		{`[0-9]{1000}`, `[0-9][0-9][0-9][0-9]`},
	} {
		re, err := syntax.Parse(c.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got := seqString(requiredSeq(re))
		if got != c.want {
			t.Errorf("requiredSeq(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}

// TestRequiredSeqChosen checks which patterns get the prefilter: selective runs do,
// common ones stay with the automaton over every byte.
func TestRequiredSeqChosen(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{`[A-Z][a-z]*[0-9]{3}`, true},
		{`[A-Z][a-z]`, false},
		{`\w+_\w+\(`, false}, // has a literal
		{`\w+`, false},
		{`[0-9]{2}`, false},
		{`[xyz][0-9]{2}`, true},
	} {
		m, err := compile(c.pattern, false, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.seq != nil; got != c.want {
			t.Errorf("%q: prefilter %v, want %v (seq %s, prob %.5f)", c.pattern, got, c.want,
				seqString(requiredSeq(mustParse(c.pattern))), seqProb(requiredSeq(mustParse(c.pattern))))
		}
	}
}

func mustParse(p string) *syntax.Regexp {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		panic(err)
	}
	return re
}

// TestSeqFinder checks the scan, vector and byte by byte, against a naive one on random
// texts of every length up to a few blocks.
func TestSeqFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	naive := func(h []byte, seq []byteSet) int {
	outer:
		for i := 0; i+len(seq) <= len(h); i++ {
			for j, s := range seq {
				if !s.has(h[i+j]) {
					continue outer
				}
			}
			return i
		}
		return -1
	}
	seqs := [][]byteSet{
		requiredSeq(mustParse(`[0-9]`)),
		requiredSeq(mustParse(`[0-9]x`)),
		requiredSeq(mustParse(`[0-9]{3}`)),
		requiredSeq(mustParse(`[a-c][0-9]{3}`)),
		requiredSeq(mustParse(`[\x00-\x7f]`)),
		requiredSeq(mustParse(`~\x7f\x00a`)),
	}
	alphabet := []byte("abcxy0123~\x7f\x00\x80\xff\n")
	for _, seq := range seqs {
		f := newSeqFinder(seq)
		for n := range 200 {
			for range 10 {
				h := make([]byte, n)
				for i := range h {
					h[i] = alphabet[rng.IntN(len(alphabet))]
				}
				if want, got := naive(h, seq), f.index(h); got != want {
					t.Fatalf("%s in %q: index %d, want %d", seqString(seq), h, got, want)
				}
				if want, got := naive(h, seq), f.indexSlow(h); got != want {
					t.Fatalf("%s in %q: indexSlow %d, want %d", seqString(seq), h, got, want)
				}
			}
		}
	}
}

// checkLines compares the lines the matcher finds in text, with its prefilter and its
// automaton, with those regexp matches one by one.
func checkLines(t *testing.T, pattern string, fold bool, text []byte) {
	t.Helper()
	src := pattern
	if fold {
		src = "(?i)" + pattern
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return
	}
	if prog, err := syntax.Compile(mustParse(src).Simplify()); err != nil {
		return
	} else if nl, _ := progInfo(prog); nl {
		// A pattern that can match a newline is one ripgrep refuses outside multiline
		// mode; the literal path finds "a\nb" across lines, regexp in no line.
		return
	}
	m, err := compile(pattern, fold, false)
	if err != nil {
		t.Fatalf("compile(%q): %v, but regexp compiles it", src, err)
	}
	var want []int
	off := 0
	for line := range bytes.Lines(text) {
		if re.Match(bytes.TrimSuffix(line, []byte("\n"))) {
			want = append(want, off)
		}
		off += len(line)
	}
	check := func(how string) {
		t.Helper()
		var d *dfa
		if m.dfa != nil {
			d = m.dfa.clone(minDFABudget)
		}
		var got []int
		for p := 0; p < len(text); {
			start, end, ok := m.nextLine(text[p:], d, m.find)
			if !ok {
				break
			}
			got = append(got, p+start)
			p += end
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q (%s) in %q: lines at %v, regexp %v", src, how, text, got, want)
		}
	}
	check("as compiled")
	if m.lit == nil && m.seq == nil {
		// Any sequence requiredSeq finds must be right, selective or not: check it
		// with the prefilter forced on.
		if seq := requiredSeq(mustParse(src)); seq != nil {
			m.seq = newSeqFinder(seq)
			check("prefilter " + seqString(seq))
		}
	}
}

func TestSeqPrefilterLines(t *testing.T) {
	text := []byte("x123\nabc\nK9999 Kelvin \u212a123 ſ00\n0x1f2e3d\n\xff123\xfe\n\nAb123\nab12 3\n12\n3\nZZz000")
	for _, p := range []string{
		`[A-Z][a-z]*[0-9]{3}`, `[0-9]{3}`, `[xyz][0-9]{2}`, `[a-z][0-9]{3}`, `(?i)K[0-9]{3}`,
		`^[0-9]{3}`, `[0-9]{3}$`, `\b[0-9]{3}\b`, `[0-9]{3}\B`, `[^0-9][0-9]{3}`, `[0-9]{2}[^0-9]`,
		`[0-9]{3}|[a-z]{2}`, `[A-Z][a-z]*[0-9]{3}\n?`, `[A-Z][a-z]?[0-9]{3}`, `[0-9]{2}[a-z]*[A-Z]`,
		`x[a-z]*[0-9]*[0-9]`, `[A-Z]\b[a-z]*[0-9]{3}`,
	} {
		checkLines(t, p, false, text)
		checkLines(t, p, true, text)
	}
	// Many lines, so that the vector scan runs: digits are common, matches rare.
	rng := rand.New(rand.NewPCG(1, 2))
	var big []byte
	for range 10000 {
		for range rng.IntN(60) {
			big = append(big, "aZz0123  \t_(xX"[rng.IntN(14)])
		}
		big = append(big, '\n')
	}
	for _, p := range []string{`[A-Z][a-z]*[0-9]{3}`, `[xyz][0-9]{2}`, `(?i)x[0-9]{3}`, `[0-9]{4}`} {
		checkLines(t, p, false, big)
		checkLines(t, p, true, big)
	}
}

// FuzzSeqPrefilter compares the lines found through the class-sequence prefilter with
// regexp's, line by line, for any pattern with and without -i.
func FuzzSeqPrefilter(f *testing.F) {
	f.Add(`[A-Z][a-z]*[0-9]{3}`, "Ab123\nab123\n0x123", false)
	f.Add(`[xyz][0-9]{2}`, "x12\nX12", true)
	f.Add(`(?i)k[0-9]{3}`, "\u212a123\nk123", false)
	f.Add(`#[a-z]*[A-Z]?[0-9]{2}`, "#ab12\n#12\n#Z12\n#aZ1", false)
	f.Fuzz(func(t *testing.T, pattern, text string, fold bool) {
		if len(pattern) > 40 {
			return
		}
		checkLines(t, pattern, fold, []byte(text))
		// Long enough for the vector scan, with the text near both ends of a block.
		long := strings.Repeat("_", 37) + "\n" + text + "\n" + strings.Repeat("_", 41) + text
		checkLines(t, pattern, fold, []byte(long))
	})
}

// TestSeqPrefilterRandom runs checkLines, the prefilter forced on, over random patterns
// of one-byte classes, repetitions and groups, on random lines.
func TestSeqPrefilterRandom(t *testing.T) {
	atoms := []string{"a", "b", "x", `\d`, `[a-c]`, `[0-9]`, `[^b]`, ".", `\w`, "é", `(?i)X`, "K", `\b`, "^", "$", "(a|b)", "(ab)", `(\d[a-c]*)`}
	ops := []string{"", "", "", "*", "?", "+", "{2}", "{1,3}", "{0,2}"}
	alphabet := []rune("abcxXkK019 é\u212a")
	rng := rand.New(rand.NewPCG(8, 9))
	for range 10000 {
		var p strings.Builder
		for range 1 + rng.IntN(6) {
			p.WriteString(atoms[rng.IntN(len(atoms))])
			p.WriteString(ops[rng.IntN(len(ops))])
		}
		var text strings.Builder
		for range 1 + rng.IntN(8) {
			for range rng.IntN(14) {
				text.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
			text.WriteByte('\n')
		}
		checkLines(t, p.String(), rng.IntN(3) == 0, []byte(text.String()))
	}
}
