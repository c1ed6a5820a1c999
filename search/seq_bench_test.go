//go:build !js && !wasip1

package search

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goSources returns about 8 MiB of the Go tree's .go files, or skips b.
func goSources(b *testing.B) []byte {
	var text []byte
	filepath.WalkDir(goSrc(), func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(text) >= 8<<20 {
			return filepath.SkipAll
		}
		if strings.HasSuffix(p, ".go") {
			if data, err := os.ReadFile(p); err == nil {
				text = append(text, data...)
			}
		}
		return nil
	})
	if len(text) < 1<<20 {
		b.Skip("no Go source tree")
	}
	return text
}

// BenchmarkSeqScan measures the class-sequence prefilter's scan alone over 8 MiB of Go
// sources, stopping at every candidate as a search does (and going on past its line):
// vector, where the CPU has it, and byte by byte.
func BenchmarkSeqScan(b *testing.B) {
	text := goSources(b)
	for _, pat := range []string{`[0-9]{3}`, `[xyz][0-9]{2}`} {
		f := newSeqFinder(requiredSeq(mustParse(pat)))
		for _, slow := range []bool{false, true} {
			name := pat + "/vector"
			if slow {
				name = pat + "/bytes"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				stops := 0
				for b.Loop() {
					stops = 0
					for p := 0; p < len(text); {
						var i int
						if slow {
							i = f.indexSlow(text[p:])
						} else {
							i = f.index(text[p:])
						}
						if i < 0 {
							break
						}
						stops++
						p = lineEnd(text, p+i)
					}
				}
				b.ReportMetric(float64(stops), "stops")
			})
		}
	}
}

// numberTable is the prefilter's worst case: 8 MiB of a table of numbers, where (but for
// the first few) every line holds a letter and three digits in a row, the sequence of
// "[A-Z][a-z]*[0-9]{3}", and none matches it.
func numberTable() []byte {
	var text []byte
	for i := 0; len(text) < 8<<20; i++ {
		text = fmt.Appendf(text, "\t{ v%d, %d, %d, %d },\n", i, i*7, i*13, i*31)
	}
	return text
}

// BenchmarkNextLineNoLiteral measures a whole search for a pattern with no literal
// (issue 18), of 8 MiB of Go sources and of numberTable: with the class-sequence
// prefilter, and without it (the automaton over every byte).
func BenchmarkNextLineNoLiteral(b *testing.B) {
	src := goSources(b)
	for _, c := range []struct {
		name string
		text []byte
		pre  bool
	}{
		{"go/prefilter", src, true},
		{"go/dfa", src, false},
		{"numbers/prefilter", numberTable(), true},
		{"numbers/dfa", numberTable(), false},
	} {
		text, pre := c.text, c.pre
		b.Run(c.name, func(b *testing.B) {
			m, err := compile(`[A-Z][a-z]*[0-9]{3}`, false, false)
			if err != nil {
				b.Fatal(err)
			}
			if !pre {
				m.seq = nil
			}
			d := m.dfa.clone(minDFABudget)
			b.SetBytes(int64(len(text)))
			lines := 0
			for b.Loop() {
				d.newFile()
				lines = 0
				for p := 0; p < len(text); {
					_, end, ok := m.nextLine(text[p:], d, m.find)
					if !ok {
						break
					}
					lines++
					p += end
				}
			}
			b.ReportMetric(float64(lines), "lines")
		})
	}
}
