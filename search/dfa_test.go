package search

import (
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
	first := -1
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	off := 0
	for _, l := range lines {
		line := strings.TrimSuffix(l, "\n")
		want := re.MatchString(line)
		if got := d.matchLine([]byte(line)); got != want {
			t.Fatalf("pattern %q, line %q: dfa says %v, regexp %v", pattern, line, got, want)
		}
		if want && first < 0 {
			first = off
		}
		off += len(l)
	}
	got := d.clone().firstLine([]byte(text))
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
