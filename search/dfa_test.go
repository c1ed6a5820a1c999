package search

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// checkDFA compares the automaton's verdict on each line of text with regexp's.
func checkDFA(t *testing.T, pattern, text string) {
	t.Helper()
	re, err := regexp.Compile(pattern)
	if err != nil {
		return
	}
	d, err := newDFA(pattern)
	if err != nil {
		t.Fatalf("newDFA(%q): %v, but regexp compiles it", pattern, err)
	}
	checkDFAWith(t, d, re, pattern, text)
	// A cache too small for more than a state or two flushes at almost every byte.
	tiny := d.clone(1)
	tiny.patient = true
	checkDFAWith(t, tiny, re, pattern, text)
}

func checkDFAWith(t *testing.T, d *dfa, re *regexp.Regexp, pattern, text string) {
	t.Helper()
	first := -1
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	off := 0
	for _, l := range lines {
		line := strings.TrimSuffix(l, "\n")
		want := re.MatchString(line)
		if got, ok := d.matchLine([]byte(line)); !ok || got != want {
			t.Fatalf("pattern %q, line %q: dfa says %v, regexp %v", pattern, line, got, want)
		}
		if want && first < 0 {
			first = off
		}
		off += len(l)
	}
	c := d.clone(d.budget)
	c.patient = d.patient
	got := c.firstLine([]byte(text))
	if first < 0 {
		if got >= 0 {
			t.Fatalf("pattern %q, text %q: firstLine = %d, want -1", pattern, text, got)
		}
		return
	}
	end := strings.IndexByte(text[first:], '\n')
	if end < 0 {
		end = len(text) - first
	}
	if got < first || got > first+end {
		t.Fatalf("pattern %q, text %q: firstLine = %d, want within [%d, %d]", pattern, text, got, first, first+end)
	}
}

func TestDFA(t *testing.T) {
	text := "package main\n\nfunc main() {\n\tfmt.Println(\"héllo, wörld\") // 123\n}\nKelvin \u212a ſ s\n\xff\xfe bad utf8\nend"
	for _, p := range []string{
		`foo`, `func`, `^func`, `^$`, `}$`, `\bmain\b`, `\Bai`, `(?i)KELVIN k`, `(?i)S`, `[0-9]{3}`,
		`\d+$`, `^\s*$`, `.`, `^.$`, `a*`, `x*$`, `é|ö`, `[^a-z]+`, `\pL+ \pL+`, `\x{fffd}`, `(?i)héllo`,
		`main\(\)`, `^\z`, `\A\t`, `(a|b)*c`, `o, w`, `[[:upper:]]`, `\W\w`, `\b`, `\B`, `^\b`, `$\B`,
		`e(l|n)d`, `^end$`, `(?U)a+?`, `l{2,}`, `[^\n]`, `\S+\s\S+`,
	} {
		checkDFA(t, p, text)
	}
}

// TestDFARandom compares the automaton with regexp on random patterns and lines.
func TestDFARandom(t *testing.T) {
	atoms := []string{"a", "b", "c", ".", `\w`, `\W`, `\d`, `\s`, `[a-c]`, `[^b]`, `^`, `$`, `\b`, `\B`, `é`, `(?i)A`, `\pL`, "x"}
	ops := []string{"", "", "*", "+", "?", "{2}", "{1,3}", "*?"}
	alphabet := []rune("abcxAB 1_é\u212a-\t")
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		var p strings.Builder
		for range 1 + rng.IntN(5) {
			if rng.IntN(6) == 0 {
				p.WriteString("(" + atoms[rng.IntN(len(atoms))] + "|" + atoms[rng.IntN(len(atoms))] + ")")
			} else {
				p.WriteString(atoms[rng.IntN(len(atoms))])
			}
			p.WriteString(ops[rng.IntN(len(ops))])
		}
		var text strings.Builder
		for range 1 + rng.IntN(6) {
			for range rng.IntN(12) {
				text.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
			text.WriteByte('\n')
		}
		s := text.String()
		if rng.IntN(2) == 0 {
			s = strings.TrimSuffix(s, "\n")
		}
		checkDFA(t, p.String(), s)
	}
}

func FuzzDFA(f *testing.F) {
	f.Add(`a\bb`, "a b\nab")
	f.Add(`^(?i)k$`, "\u212a\nK")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if len(pattern) > 40 {
			return
		}
		checkDFA(t, pattern, text)
	})
}

// abLines is the input of issue 12.1: n random lines of 100 a's and b's (3000 in the
// issue), on which "a[ab]{25}c" has a new automaton state at almost every byte.
func abLines(n int) []byte {
	rng := rand.New(rand.NewPCG(7, 7))
	var b []byte
	for range n {
		for range 100 {
			b = append(b, "ab"[rng.IntN(2)])
		}
		b = append(b, '\n')
	}
	return b
}

// reachable returns the bytes of the states reachable from the dfa's start state and
// cache, counted as the budget counts them.
func (d *dfa) reachable() int {
	seen := map[*dstate]bool{}
	stack := []*dstate{d.start}
	for _, s := range d.states {
		stack = append(stack, s)
	}
	n := 0
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] || s.match {
			continue
		}
		seen[s] = true
		n += stateCost + int(d.stride)*cellCost + len(s.pcs)*pcCost + len(s.other)*otherCost
		for _, t := range d.trans[s.row : s.row+d.stride] {
			if t != 0 {
				stack = append(stack, d.byRow[t/d.stride])
			}
		}
		for _, t := range s.other {
			stack = append(stack, t)
		}
	}
	return n
}

// TestGrepDFAMemoryBounded checks that the automaton's cache never holds more than its
// budget, however many states the input calls for.
//
// Issue 12.1: the state cap dropped states from the map, but they stayed reachable from
// the start state, so the cache grew with the input (350 MB for 300 KB of a's and b's).
func TestGrepDFAMemoryBounded(t *testing.T) {
	text := abLines(800)
	const budget = 64 << 10
	for _, pattern := range []string{`[ab]*a[ab]{25}c`, `a[ab]{20}b$`, `[aeiou].{14}[xyz][0-9]`, `(a|b)*b[ab]{12}a`} {
		re := regexp.MustCompile(pattern)
		base, err := newDFA(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, patient := range []bool{true, false} {
			d := base.clone(budget)
			d.patient = patient
			lines := 0
			for line := range bytes.Lines(text) {
				line = bytes.TrimSuffix(line, []byte("\n"))
				got, ok := d.matchLine(line)
				if !ok {
					got = re.Match(line) // what the searcher falls back to
				}
				if want := re.Match(line); got != want {
					t.Fatalf("%q patient=%v, line %d: dfa says %v, regexp %v", pattern, patient, lines+1, got, want)
				}
				if d.used > budget {
					t.Fatalf("%q patient=%v, line %d: %d bytes counted, budget %d", pattern, patient, lines+1, d.used, budget)
				}
				if lines%50 != 0 {
					lines++
					continue
				}
				if n := d.reachable(); n > budget {
					t.Fatalf("%q patient=%v, line %d: %d bytes reachable, %d counted, budget %d", pattern, patient, lines+1, n, d.used, budget)
				}
				lines++
			}
			t.Logf("%q patient=%v: %d flushes, gave up: %v", pattern, patient, d.flushes, d.gaveUp)
		}
	}
}

// TestGrepDFAGivesUp checks that an automaton that thrashes gives up, and that a search
// with it still finds what regexp finds.
func TestGrepDFAGivesUp(t *testing.T) {
	text := abLines(3000)
	pattern := `a[ab]{25}a$`
	d, err := newDFA(pattern)
	if err != nil {
		t.Fatal(err)
	}
	d = d.clone(64 << 10)
	for p := 0; ; {
		i := d.firstLine(text[p:])
		if i == gaveUp {
			if q := p + d.stopped; q > 0 && text[q-1] != '\n' {
				t.Fatalf("firstLine gave up at %d, not a line start", q)
			}
			break
		}
		if i < 0 {
			t.Fatal("firstLine did not give up")
		}
		p += i
		p = lineEnd(text, p)
	}
	m, err := compile(pattern, false, false)
	if err != nil {
		t.Fatal(err)
	}
	m.dfa = d
	d.newFile()
	want := 0
	for line := range bytes.Lines(text) {
		if m.line.Match(bytes.TrimSuffix(line, []byte("\n"))) {
			want++
		}
	}
	got := 0
	for p := 0; p < len(text); {
		_, end, ok := m.nextLine(text[p:], d, m.find)
		if !ok {
			break
		}
		got++
		p += end
	}
	if got != want || !d.gaveUp {
		t.Fatalf("nextLine found %d lines (gave up: %v), regexp %d", got, d.gaveUp, want)
	}
}
