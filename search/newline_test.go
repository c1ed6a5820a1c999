//go:build !js && !wasip1

package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestNewlineOutsideMultiline: a pattern every match of which holds a newline is refused
// outside multiline mode, instead of its literal being found across the end of a line
// ("a\nb" matched the two lines "a" and "b" and reported the first). In multiline mode it
// matches across lines; a pattern that may match a newline or not ("a|\n", "a[\na]b"),
// or whose required literal holds none ("a\n+b"), still searches line by line, and no
// line matches where the newline is required.
func TestNewlineOutsideMultiline(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.txt"), []byte("a\nb\naab\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := hostStore(t, dir)
	ctx := context.Background()
	for p, multi := range map[string]string{`a\nb`: "t.txt:1\n", `a[\n]b`: "t.txt:1\n", `a\x0Ab`: "t.txt:1\n", `\n`: "t.txt:3\n", `(?i)A\nB`: "t.txt:1\n"} {
		_, err := Grep(ctx, s, ".", GrepOptions{Pattern: p, Mode: Count})
		var pe *PatternError
		if !errors.As(err, &pe) || !errors.Is(err, errNewline) {
			t.Errorf("Grep(%q) = %v, want the newline's *PatternError", p, err)
		}
		res, err := Grep(ctx, s, ".", GrepOptions{Pattern: p, Mode: Count, Multiline: true, IgnoreCase: true})
		if err != nil || res.Text() != multi {
			t.Errorf("Grep(%q, multiline) = %+v, %v; want %q", p, res, err, multi)
		}
	}
	for p, want := range map[string]string{`a|\n`: "t.txt:2\n", `a[\na]b`: "t.txt:1\n", `\s`: "", `a\n+b`: ""} {
		res, err := Grep(ctx, s, ".", GrepOptions{Pattern: p, Mode: Count})
		if err != nil || res.Text() != want {
			t.Errorf("Grep(%q) = %+v, %v; want %q", p, res, err, want)
		}
	}
}

// TestReplacementCharMatchesInvalidBytes: as in Go's regexp, U+FFFD in a pattern matches a
// byte that is not UTF-8, on the literal path as on the automaton's (the finder looked for
// the bytes of U+FFFD and missed "a\xffb").
func TestReplacementCharMatchesInvalidBytes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.txt"), []byte("a\xffb\nab\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := hostStore(t, dir)
	for _, p := range []string{`a\x{FFFD}b`, `\x{FFFD}`, `a[\x{FFFD}x]b`, `[\x{FFFD}x]`, `(?i)A\x{FFFD}B`} {
		res, err := Grep(context.Background(), s, ".", GrepOptions{Pattern: p, Mode: Count})
		if err != nil || res.Text() != "t.txt:1\n" {
			t.Errorf("Grep(%q) = %+v, %v; want the one line", p, res, err)
		}
	}
}
