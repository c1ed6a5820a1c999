package textdiff

import (
	"fmt"
	"strings"
	"testing"
)

// TestPickHunks takes each subset of hunks and checks the ends and the middle.
func TestPickHunks(t *testing.T) {
	var a, b []string
	for i := range 30 {
		a = append(a, fmt.Sprint("line ", i))
		b = append(b, fmt.Sprint("line ", i))
		if i == 2 || i == 20 {
			b[i] = "changed"
		}
	}
	at, bt := strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n"
	hs := Hunks(at, bt, 3)
	if len(hs) != 2 || strings.Count(Unified("f", at, bt, 3, 0), "@@ -") != 2 {
		t.Fatalf("Hunks = %+v", hs)
	}
	if got := Pick(at, bt, 3, func(int) bool { return true }); got != bt {
		t.Errorf("taking all = %q", got)
	}
	if got := Pick(at, bt, 3, func(int) bool { return false }); got != at {
		t.Errorf("taking none = %q", got)
	}
	first := Pick(at, bt, 3, func(i int) bool { return i == 0 })
	if strings.Count(first, "changed") != 1 || !strings.HasSuffix(first, "\n") || len(Hunks(first, bt, 3)) != 1 {
		t.Errorf("taking the first = %q", first)
	}
	if hs[0].Added != 1 || hs[0].Removed != 1 {
		t.Errorf("counts = %+v", hs[0])
	}
}
