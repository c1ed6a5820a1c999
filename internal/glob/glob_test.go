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
