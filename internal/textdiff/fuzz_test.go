package textdiff

import (
	"strings"
	"testing"
)

// FuzzHunks checks the properties review relies on for any pair of texts: taking every
// hunk gives the new text, taking none the old, and Unified shows exactly the hunks Hunks
// names.
func FuzzHunks(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", 1)
	f.Add("x", "x\ny", 0)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n", "0\n2\n3\n4\n5\n6\n7\n9", 2)
	f.Add("", "new\n", 3)
	f.Fuzz(func(t *testing.T, a, b string, context int) {
		context = min(max(context, 0), 5)
		if got := Pick(a, b, context, func(int) bool { return true }); got != b {
			t.Fatalf("Pick(all) = %q, want %q", got, b)
		}
		if got := Pick(a, b, context, func(int) bool { return false }); got != a {
			t.Fatalf("Pick(none) = %q, want %q", got, a)
		}
		headers := 0
		for l := range strings.SplitSeq(Unified("f", a, b, context, 0), "\n") {
			if strings.HasPrefix(l, "@@ ") {
				headers++
			}
		}
		if n := len(Hunks(a, b, context)); n != headers {
			t.Fatalf("Hunks: %d, Unified shows %d", n, headers)
		}
	})
}
