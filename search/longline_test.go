package search

import (
	"context"
	"strings"
	"testing"
)

// A line longer than the buffer grows it for that file only: the lines around it are
// found with their numbers, and the next file is searched in the searcher's own buffer
// again, not in a new one (issue 40: each grown or new buffer is pages to fault in).
func TestLongLineBufferKept(t *testing.T) {
	m, err := compile("func main", false, false)
	if err != nil {
		t.Fatal(err)
	}
	own := make([]byte, bufSize)
	sr := &searcher{m: m, mode: Content, buf: own}
	ctx := context.Background()
	long := "x" + strings.Repeat("y", 3*bufSize) + " func main\n"
	text := "func main 1\n" + long + "func main 3\n"
	out := sr.search(ctx, strings.NewReader(text), "long.go")
	if len(out) != 3 || out[0].Line != 1 || out[1].Line != 2 || out[2].Line != 3 {
		t.Fatalf("entries %d, want lines 1, 2, 3", len(out))
	}
	if len(out[1].Text) != len(long)-1 {
		t.Errorf("the long line has %d bytes, want %d", len(out[1].Text), len(long)-1)
	}
	out = sr.search(ctx, strings.NewReader("a\nfunc main\n"), "short.go")
	if len(out) != 1 || out[0].Line != 2 {
		t.Fatalf("short file: %v", out)
	}
	if len(sr.buf) != bufSize || &sr.buf[0] != &own[0] {
		t.Errorf("after a long line the searcher reads into a buffer of %d bytes, not its own", len(sr.buf))
	}
}
