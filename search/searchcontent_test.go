package search

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
)

// searchContent searches content in memory where it is: the same entries as search over
// a reader of it, and the content left as it was.
func TestSearchContentSameAsSearch(t *testing.T) {
	long := strings.Repeat("filler line without the word\n", 20000) // past one buffer
	texts := map[string]string{
		"plain":  "a\nfunc main() {\n}\nfunc main2\n",
		"bom":    "\ufefffunc main\nfunc x\n",
		"no nl":  "x\nfunc main",
		"long":   long + "func main\n" + long,
		"binary": "func main\x00\n",
		"empty":  "",
	}
	cases := []struct {
		pattern       string
		ignore, multi bool
		mode          OutputMode
		before, after int
	}{
		{pattern: "func main", mode: Content},
		{pattern: "^func", mode: Content, before: 1, after: 2},
		{pattern: "FUNC [a-z]+", ignore: true, mode: Count},
		{pattern: `main\(\) \{\n\}`, multi: true, mode: Content},
		{pattern: "main", mode: FilesWithMatches},
	}
	ctx := context.Background()
	for _, c := range cases {
		m, err := compile(c.pattern, c.ignore, c.multi)
		if err != nil {
			t.Fatal(err)
		}
		sr := &searcher{m: m, mode: c.mode, before: c.before, after: c.after, buf: make([]byte, bufSize)}
		if m.dfa != nil {
			sr.dfa = m.dfa.clone(minDFABudget)
		}
		for name, text := range texts {
			want := sr.search(ctx, strings.NewReader(text), name)
			wantBinary := sr.binary
			data := []byte(text)
			own := sr.buf
			got := sr.searchContent(ctx, data, name)
			if !reflect.DeepEqual(got, want) || sr.binary != wantBinary {
				t.Errorf("%q in %s: searchContent %v (binary %v), search %v (binary %v)", c.pattern, name, got, sr.binary, want, wantBinary)
			}
			if !bytes.Equal(data, []byte(text)) {
				t.Errorf("%q in %s: searchContent changed the content", c.pattern, name)
			}
			if len(sr.buf) != len(own) || &sr.buf[0] != &own[0] {
				t.Errorf("%q in %s: the searcher's buffer is not its own after", c.pattern, name)
			}
		}
	}
}
