package editmatch

import (
	"errors"
	"testing"
)

// A tolerant match whose last line is only the start of a file line ends at a word's
// edge, never inside a word: "foo" must not take the start of "foobar()".
func TestTolerantMidLineEndsAtWordEdge(t *testing.T) {
	text := "func f() {\n    foobar()\n}\n"
	if _, err := Find(text, "func f() {\n  foo", "func f() {\n  baz"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a match ending inside a word: err = %v, want ErrNotFound", err)
	}
	r, err := Find(text, "func f() {\n  foobar", "func f() {\n  bazbar")
	if err != nil {
		t.Fatal(err)
	}
	if got := text[:r.Start] + r.New + text[r.End:]; got != "func f() {\n    bazbar()\n}\n" {
		t.Fatalf("%q", got)
	}
}
