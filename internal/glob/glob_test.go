package glob

import (
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// TestMatchLikeDoublestar: issue 18.2: the fast tests must give doublestar's answers; each
// pattern shape is tried on paths that sit on the edges of each test.
func TestMatchLikeDoublestar(t *testing.T) {
	pats := []string{
		"a.c", "*.c", "*c", "x*", "main*", "**/*.c", "**/.env", "**/id_rsa*", "**/*.pem",
		".git/**", "a/b/**", "a/b", "**/*", "*", "**", "a/*.c", "**/a/*.c", "*.[ch]",
		"{a,b}.c", `\*.c`, "a?c", "**/x/**", "**/*.tar.gz", "*.go", "**/",
		"**/.git/**", "**/a/**", "**/a.c/**", "**/a/b/**",
	}
	paths := []string{
		"", "a.c", ".c", "c", "b/a.c", "a/b.c", "a/b/c.c", "x", "xy", "x/y", "xy/z", "main.go",
		"main", ".env", "a/.env", "a/.envx", "id_rsa", "id_rsa.pub", "d/id_rsa.pub", "k.pem",
		"a/b/k.pem", ".git", ".git/config", ".gitx", ".git/a/b", "a/b", "a/bc", "a/b/c",
		"a", "ac", "abc", "a.h", "*.c", "a/x/b", "x/a", "t.tar.gz", "a/t.tar.gz", "a/", "a.c/",
		"é.c", "a/é.c", "\xff.c", "b/.git", "b/.git/x", "x.git/y", "b/.gitx/y", "a/.git", "b/a/.git/c",
		"aa/b", "b/aa", "ba", "b/a", "a.c/x",
	}
	for _, p := range pats {
		if !doublestar.ValidatePattern(p) {
			continue
		}
		m := Compile(p)
		for _, s := range paths {
			if got, want := m.Match(s), doublestar.MatchUnvalidated(p, s); got != want {
				t.Errorf("Compile(%q).Match(%q) = %v, doublestar says %v (kind %d)", p, s, got, want, m.kind)
			}
		}
	}
	for p, k := range map[string]kind{"**/*.c": anySuf, ".git/**": under, "**/.env": anyExact, "*.go": suffix, "**/id_rsa*": anyPre, "**/.git/**": anyUnder} {
		if got := Compile(p).kind; got != k {
			t.Errorf("Compile(%q) kind %d, want %d", p, got, k)
		}
	}
}

// BenchmarkMatch compares a compiled "**/*.c" and ".git/**" with doublestar.
func BenchmarkMatch(b *testing.B) {
	paths := []string{"drivers/net/ethernet/intel/e1000/e1000_main.c", "include/linux/sched.h", "a.c"}
	for _, p := range []string{"**/*.c", ".git/**"} {
		m := Compile(p)
		b.Run(p+"/compiled", func(b *testing.B) {
			for b.Loop() {
				for _, s := range paths {
					m.Match(s)
				}
			}
		})
		b.Run(p+"/doublestar", func(b *testing.B) {
			for b.Loop() {
				for _, s := range paths {
					doublestar.MatchUnvalidated(p, s)
				}
			}
		})
	}
}

// TestLastElement: the matcher of a path's last element must agree with doublestar on
// every path none of whose parent directories the pattern matches (a walk that skips
// matching directories asks only about such paths), and be offered only for the shapes
// that need no more than the last element.
func TestLastElement(t *testing.T) {
	pats := []string{
		"**/*.c", "**/.env", "**/.env.*", "**/id_rsa*", "**/*.pem", "**/.git/**", "**/a/**",
		"**/x", "**/*.tar.gz", ".git/**", "a/b/**", "*.c", "a/*.c", "**/a/*.c", "x*", "**/*",
	}
	paths := []string{
		"a.c", "b/a.c", "a/b/c.c", ".c", "c", ".env", "a/.env", "a/.envx", ".env.local", "d/.env.x",
		"id_rsa", "d/id_rsa.pub", "xid_rsa", "k.pem", "a/b/k.pem", "pem", ".git", "b/.git", ".gitx",
		"a", "b/a", "b/ab", "x", "y/x", "xy", "t.tar.gz", "a/t.tar.gz", "a/b", "a/b/c", "é.c",
	}
	for _, p := range pats {
		m := Compile(p)
		byName, ok := m.LastElement()
		if want := m.kind == anyExact || m.kind == anySuf || m.kind == anyPre || m.kind == anyUnder; ok != want {
			t.Errorf("Compile(%q).LastElement() offered %v, want %v", p, ok, want)
		}
		if !ok {
			continue
		}
	paths:
		for _, s := range paths {
			for i := range len(s) {
				if s[i] == '/' && doublestar.MatchUnvalidated(p, s[:i]) {
					continue paths // a parent matches: the walk never gets here
				}
			}
			if got, want := byName.Match(last(s)), doublestar.MatchUnvalidated(p, s); got != want {
				t.Errorf("Compile(%q).LastElement().Match(%q) = %v, doublestar says %v of %q", p, last(s), got, want, s)
			}
		}
	}
}

// TestEdge: a string a matcher matches starts (or ends) with the matcher's edge byte, for
// the matchers that offer one, last-element matchers included.
func TestEdge(t *testing.T) {
	pats := []string{"a.c", "*.c", "*c", "x*", "main*", ".env", ".env.*", "id_rsa*", "*.pem", "*", "**/*.c", "a/**", "{a,b}.c"}
	strs := []string{"", "a.c", ".c", "c", "x", "xy", "main.go", ".env", ".env.x", "id_rsa", "k.pem", "a", "a/b", "b.c", "é.c"}
	offered := 0
	for _, p := range pats {
		for _, m := range []Matcher{Compile(p), Compile("**/" + p)} {
			if byName, ok := m.LastElement(); ok {
				m = byName
			}
			b, atEnd, ok := m.Edge()
			if !ok {
				continue
			}
			offered++
			for _, s := range strs {
				if !m.Match(s) {
					continue
				}
				if atEnd && s[len(s)-1] != b || !atEnd && s[0] != b {
					t.Errorf("%q matches %q, which does not have the edge byte %q (at end: %v)", m.Pattern(), s, b, atEnd)
				}
			}
		}
	}
	if offered < 10 {
		t.Errorf("only %d matchers offered an edge", offered)
	}
	for _, p := range []string{"*", "**/*.c", "{a,b}.c", "a/**"} {
		if _, _, ok := Compile(p).Edge(); ok {
			t.Errorf("Compile(%q) offers an edge", p)
		}
	}
}
