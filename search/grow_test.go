package search

import (
	"context"
	"strings"
	"testing"
)

// Files with a line longer than the buffer search in one grown buffer kept between them,
// up to keepBig: a second such file allocates nothing for its line (each fresh buffer is
// pages to fault in, issue 40), and its matches are found as in the first.
func TestGrownBufferReused(t *testing.T) {
	m, err := compile("func main", false, false)
	if err != nil {
		t.Fatal(err)
	}
	sr := &searcher{m: m, mode: Count, buf: make([]byte, bufSize)}
	ctx := context.Background()
	text := "func main\n" + strings.Repeat("y", 3*bufSize) + " func main\nfunc main\n"
	r := strings.NewReader(text)
	if out := sr.search(ctx, r, "a.go"); len(out) != 1 || out[0].Count != 3 {
		t.Fatalf("first file: %+v, want a count of 3", out)
	}
	if len(sr.big) == 0 || len(sr.big) > keepBig {
		t.Fatalf("kept buffer of %d bytes, want one of at most %d", len(sr.big), keepBig)
	}
	allocs := testing.AllocsPerRun(5, func() {
		r.Reset(text)
		if out := sr.search(ctx, r, "b.go"); len(out) != 1 || out[0].Count != 3 {
			t.Fatalf("again: %+v, want a count of 3", out)
		}
	})
	// The entry and its name; a fresh buffer for the line would be one more, of megabytes.
	if allocs > 2 {
		t.Errorf("%v allocations per file with a long line, want at most 2", allocs)
	}
	// A line longer than keepBig still grows a buffer of its own, not kept.
	huge := strings.Repeat("z", keepBig+1) + " func main\n"
	if out := sr.search(ctx, strings.NewReader(huge), "c.go"); len(out) != 1 || out[0].Count != 1 {
		t.Fatalf("huge line: %+v, want a count of 1", out)
	}
	if len(sr.big) > keepBig {
		t.Errorf("kept a buffer of %d bytes, more than %d", len(sr.big), keepBig)
	}
}
