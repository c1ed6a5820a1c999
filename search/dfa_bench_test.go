//go:build !js && !wasip1

package search

import (
	"bytes"
	"testing"
)

// BenchmarkDFAFirstLine measures the automaton's byte loop alone, the loop that takes
// most of a search for a pattern without a literal (issue 18), over 8 MiB of the Go
// tree's sources held in memory: each call finds the next matching line, and the search
// goes on after it.
func BenchmarkDFAFirstLine(b *testing.B) {
	text := goSources(b)
	for _, pat := range []string{`[A-Z][a-z]*[0-9]{3}`, `\w+_\w+\(`} {
		b.Run(pat, func(b *testing.B) {
			d, err := newDFA(pat)
			if err != nil {
				b.Fatal(err)
			}
			d.patient = true
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				d.newFile()
				for p := 0; p < len(text); {
					i := d.firstLine(text[p:])
					if i < 0 {
						break
					}
					// On past the matching line.
					e := bytes.IndexByte(text[p+i:], '\n')
					if e < 0 {
						break
					}
					p += i + e + 1
				}
			}
		})
	}
}
