// Package glob compiles a doublestar glob once into a matcher that decides the common
// shapes by a string test: a literal, "*.c" (a suffix), "name*" (a prefix), "**/x",
// "**/*.c" and "**/name*" (a test of the last element), "dir/**" (a prefix of
// elements) and "**/name/**" (an element). Anything else goes to github.com/bmatcuk/doublestar/v4, with the same result:
// the fast tests are the meaning doublestar gives those shapes, checked against it in the
// tests. Walks call a matcher once per entry per rule, so the general matcher, which
// decodes the pattern rune by rune on every call, was a large share of find's CPU.
package glob

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// kind is how a Matcher decides.
type kind uint8

const (
	general  kind = iota // doublestar
	literal              // s == lit
	suffix               // s ends in lit, no "/" in s before it
	prefix               // s starts with lit, no "/" in s after it
	anyExact             // the last element of s is lit
	anySuf               // the last element of s ends in lit
	anyPre               // the last element of s starts with lit
	under                // s is lit or below it
	anyUnder             // some element of s is lit ("**/.git/**")
)

// Matcher matches one valid doublestar pattern. The zero Matcher matches only "".
type Matcher struct {
	kind kind
	lit  string
	pat  string
}

const meta = `*?[{\`

// Compile returns the matcher of pat, which the caller has validated
// (doublestar.ValidatePattern).
func Compile(pat string) Matcher {
	m := Matcher{pat: pat}
	plain := func(s string) bool { return !strings.ContainsAny(s, meta) }
	switch {
	case plain(pat):
		m.kind, m.lit = literal, pat
	case strings.HasPrefix(pat, "**/") && plain(pat[3:]) && !strings.Contains(pat[3:], "/"):
		m.kind, m.lit = anyExact, pat[3:]
	case strings.HasPrefix(pat, "**/*") && len(pat) > 4 && plain(pat[4:]) && !strings.Contains(pat[4:], "/"):
		m.kind, m.lit = anySuf, pat[4:]
	case strings.HasPrefix(pat, "**/") && strings.HasSuffix(pat, "*") && len(pat) > 4 &&
		plain(pat[3:len(pat)-1]) && !strings.Contains(pat[3:], "/"):
		m.kind, m.lit = anyPre, pat[3:len(pat)-1]
	case strings.HasPrefix(pat, "*") && plain(pat[1:]) && !strings.Contains(pat, "/"):
		m.kind, m.lit = suffix, pat[1:]
	case strings.HasSuffix(pat, "*") && plain(pat[:len(pat)-1]) && !strings.Contains(pat, "/"):
		m.kind, m.lit = prefix, pat[:len(pat)-1]
	case strings.HasPrefix(pat, "**/") && strings.HasSuffix(pat, "/**") && len(pat) > 6 &&
		plain(pat[3:len(pat)-3]) && !strings.Contains(pat[3:len(pat)-3], "/"):
		m.kind, m.lit = anyUnder, pat[3:len(pat)-3]
	case strings.HasSuffix(pat, "/**") && len(pat) > 3 && plain(pat[:len(pat)-3]):
		m.kind, m.lit = under, pat[:len(pat)-3]
	}
	return m
}

// Pattern returns the pattern m was compiled from.
func (m Matcher) Pattern() string { return m.pat }

// Match reports whether s, a slash-separated path, matches the pattern.
func (m Matcher) Match(s string) bool {
	switch m.kind {
	case literal:
		return s == m.lit
	case suffix:
		return strings.HasSuffix(s, m.lit) && !strings.Contains(s[:len(s)-len(m.lit)], "/")
	case prefix:
		return strings.HasPrefix(s, m.lit) && !strings.Contains(s[len(m.lit):], "/")
	case anyExact:
		return last(s) == m.lit
	case anySuf:
		return strings.HasSuffix(last(s), m.lit)
	case anyPre:
		return strings.HasPrefix(last(s), m.lit)
	case under:
		return strings.HasPrefix(s, m.lit) && (len(s) == len(m.lit) || s[len(m.lit)] == '/')
	case anyUnder:
		return hasElement(s, m.lit)
	}
	return doublestar.MatchUnvalidated(m.pat, s)
}

// Edge returns a byte every string m matches must start with (atEnd false) or end with
// (atEnd true), and true; or false when m has no such byte. It lets a caller with many
// matchers rule most strings out by their first and last bytes alone.
func (m Matcher) Edge() (b byte, atEnd, ok bool) {
	switch {
	case m.lit == "":
		return 0, false, false
	case m.kind == literal, m.kind == prefix:
		return m.lit[0], false, true
	case m.kind == suffix:
		return m.lit[len(m.lit)-1], true, true
	}
	return 0, false, false
}

// LastElement returns a matcher of a path's last element alone that agrees with m on
// every path none of whose parent directories m matches, and true; or false when m needs
// more of the path than its last element. A walk that never enters a directory matching
// its rules asks only about each entry's own name: "**/*.pem" asks whether the name ends
// in ".pem", and "**/.git/**" whether it is ".git" (below a ".git" the walk never goes).
func (m Matcher) LastElement() (Matcher, bool) {
	switch m.kind {
	case anyExact, anyUnder:
		return Matcher{kind: literal, lit: m.lit, pat: m.lit}, true
	case anySuf:
		return Matcher{kind: suffix, lit: m.lit, pat: "*" + m.lit}, true
	case anyPre:
		return Matcher{kind: prefix, lit: m.lit, pat: m.lit + "*"}, true
	}
	return Matcher{}, false
}

// hasElement reports whether one of the slash-separated elements of s is e.
func hasElement(s, e string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], e)
		if i < 0 {
			return false
		}
		i += from
		if (i == 0 || s[i-1] == '/') && (i+len(e) == len(s) || s[i+len(e)] == '/') {
			return true
		}
		from = i + 1
	}
}

func last(s string) string { return s[strings.LastIndexByte(s, '/')+1:] }
