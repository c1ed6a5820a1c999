package llmfs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// TestListingLoadsNoBlob: issue 40.3, llmfs log loaded two contents per entry to count
// their lines. The journal counts them when it records a change: a listing with counts
// loads no content, and the counts are those History.Lines makes from the contents.
func TestListingLoadsNoBlob(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		for i := range 12 {
			put(t, w, fmt.Sprintf("f%d.txt", i%3), strings.Repeat(fmt.Sprintf("line %d\n", i), 1+i%5))
		}
		if _, err := w.Write(bg, "f0.txt", "more\n", llmfs.WriteOptions{Mode: llmfs.AppendTo}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Edit(bg, "f1.txt", "line", "LINE", true); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Copy(bg, "f1.txt", "c/copy.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Move(bg, "f2.txt", "g.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Delete(bg, "f0.txt"); err != nil {
			t.Fatal(err)
		}
		reads := llmfs.CountBlobReads(w)
		lc := w.History().LineCounter()
		type counted struct {
			c    llmfs.Change
			a, r int
		}
		var all []counted
		for c, err := range w.History().All(bg, llmfs.HistoryFilter{}) {
			if err != nil {
				t.Fatal(err)
			}
			a, r := lc.Lines(bg, c)
			if ha, hr := w.History().Lines(bg, c); ha != a || hr != r {
				t.Errorf("change %d: LineCounter +%d -%d, Lines +%d -%d", c.ID, a, r, ha, hr)
			}
			all = append(all, counted{c, a, r})
		}
		if n := reads.Load(); n != 0 {
			t.Errorf("a listing of %d changes with their line counts loaded %d contents, want none", len(all), n)
		}
		if len(all) < 18 {
			t.Fatalf("listed %d changes, want at least 18", len(all))
		}
		for _, e := range all {
			if a, r := llmfs.UncountedLines(bg, w.History(), e.c); a != e.a || r != e.r {
				t.Errorf("change %d (%s %s): recorded +%d -%d, counted from the contents +%d -%d",
					e.c.ID, e.c.Op, w.Paths().Rel(e.c.Path), e.a, e.r, a, r)
			}
		}
	})
}

// TestLargeChangeCountedWhenRead: a write of content above the bound on counting at write
// time is left uncounted, and History.Lines counts it from the journal's content.
func TestLargeChangeCountedWhenRead(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		big := strings.Repeat("a line of a large file\n", 5<<20/23)
		put(t, w, "big.txt", big)
		put(t, w, "big.txt", big+"one more\n")
		cs := history(t, w, llmfs.HistoryFilter{Limit: 1})
		reads := llmfs.CountBlobReads(w)
		if a, r := w.History().Lines(bg, cs[0]); a != 1 || r != 0 {
			t.Errorf("Lines = +%d -%d, want +1 -0", a, r)
		}
		if reads.Load() == 0 {
			t.Errorf("a change above the bound was counted at write time")
		}
	})
}
