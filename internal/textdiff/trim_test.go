package textdiff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// hunkSums is what HunkCounts must give: Hunks summed.
func hunkSums(a, b string, context int) (added, removed, hunks int) {
	for _, h := range Hunks(a, b, context) {
		added += h.Added
		removed += h.Removed
		hunks++
	}
	return added, removed, hunks
}

// TestHunkCountsMatchesHunks compares HunkCounts with Hunks on random texts of a few
// distinct lines, with and without a final newline, CRLF endings and empty lines, where
// the cut of common lines is easiest to get wrong.
func TestHunkCountsMatchesHunks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a\n", "b\n", "\n", "a", "b", "a\r\n", "ab\n", "\\ No newline at end of file\n"}
	text := func() string {
		var sb strings.Builder
		for n := r.IntN(12); n > 0; n-- {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		return sb.String()
	}
	for i := 0; i < 20000; i++ {
		a, b := text(), text()
		if r.IntN(2) == 0 { // b an edit of a, so that both share a start and an end
			cut := r.IntN(len(a) + 1)
			end := cut + r.IntN(len(a)-cut+1)
			b = a[:cut] + text() + a[end:]
		}
		context := r.IntN(4)
		ga, gr, gh := HunkCounts(a, b, context)
		wa, wr, wh := hunkSums(a, b, context)
		if ga != wa || gr != wr || gh != wh {
			t.Fatalf("HunkCounts(%q, %q, %d) = %d, %d, %d; Hunks gives %d, %d, %d", a, b, context, ga, gr, gh, wa, wr, wh)
		}
	}
}

func FuzzHunkCounts(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", 1)
	f.Add("x", "x\ny", 0)
	f.Add("x\ny", "z\ny", 0)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n", "0\n2\n3\n4\n5\n6\n7\n9", 2)
	f.Fuzz(func(t *testing.T, a, b string, context int) {
		context = min(max(context, 0), 5)
		ga, gr, gh := HunkCounts(a, b, context)
		wa, wr, wh := hunkSums(a, b, context)
		if ga != wa || gr != wr || gh != wh {
			t.Fatalf("HunkCounts = %d, %d, %d; Hunks gives %d, %d, %d", ga, gr, gh, wa, wr, wh)
		}
	})
}

// BenchmarkHunkCounts counts the change bench/review.sh makes to each of its files: line 11
// of 20 edited.
func BenchmarkHunkCounts(b *testing.B) {
	var old, edited strings.Builder
	for l := range 20 {
		fmt.Fprintf(&old, "line %d of file 7\n", l)
		if l == 10 {
			fmt.Fprintf(&edited, "line %d of file 7 CHANGED\n", l)
			continue
		}
		fmt.Fprintf(&edited, "line %d of file 7\n", l)
	}
	a, n := old.String(), edited.String()
	b.Run("HunkCounts", func(b *testing.B) {
		for b.Loop() {
			HunkCounts(a, n, 3)
		}
	})
	b.Run("Hunks", func(b *testing.B) {
		for b.Loop() {
			hunkSums(a, n, 3)
		}
	})
}
