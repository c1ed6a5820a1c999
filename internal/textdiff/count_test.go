package textdiff

import "testing"

// Count agrees with the sum over Hunks, which is what History.Lines counted before the
// journal kept counts.
func TestCountMatchesHunks(t *testing.T) {
	texts := []string{"", "a", "a\n", "a\nb\n", "a\nb", "b\n", "x\na\nb\ny\n", "a\r\nb\r\n", "\n", "\n\n", "a\nc\nb\n"}
	for _, a := range texts {
		for _, b := range texts {
			var wa, wr int
			for _, h := range Hunks(a, b, 0) {
				wa += h.Added
				wr += h.Removed
			}
			if ga, gr := Count(a, b); ga != wa || gr != wr {
				t.Errorf("Count(%q, %q) = +%d -%d, Hunks say +%d -%d", a, b, ga, gr, wa, wr)
			}
		}
	}
}

func FuzzCount(f *testing.F) {
	f.Add("a\nb\n", "a\nc\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		var wa, wr int
		for _, h := range Hunks(a, b, 0) {
			wa += h.Added
			wr += h.Removed
		}
		if ga, gr := Count(a, b); ga != wa || gr != wr {
			t.Errorf("Count(%q, %q) = +%d -%d, Hunks say +%d -%d", a, b, ga, gr, wa, wr)
		}
	})
}
