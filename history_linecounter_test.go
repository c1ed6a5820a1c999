package llmfs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// Issue 40.3: llmfs log loaded two contents per entry to count its lines. A LineCounter
// keeps the recent ones (a path's older change left what its newer one started from); its
// counts are History.Lines's, for writes, edits, moves, removals and unchanged contents.
func TestLineCounterMatchesLines(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		for i := range 30 {
			name := fmt.Sprintf("f%d.txt", i%4)
			put(t, w, name, strings.Repeat(fmt.Sprintf("line %d\n", i), 1+i%6))
		}
		put(t, w, "f0.txt", "same\n")
		put(t, w, "f0.txt", "same\n")
		if _, err := w.Move(bg, "f1.txt", "g.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Delete(bg, "f2.txt"); err != nil {
			t.Fatal(err)
		}
		lc := w.History().LineCounter()
		for _, c := range history(t, w, llmfs.HistoryFilter{}) {
			a, r := w.History().Lines(bg, c)
			ga, gr := lc.Lines(bg, c)
			if ga != a || gr != r {
				t.Errorf("change %d (%s %s): LineCounter +%d -%d; Lines +%d -%d", c.ID, c.Op, c.Path, ga, gr, a, r)
			}
		}
	})
}
