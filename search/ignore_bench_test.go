package search

import (
	"path"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreBenchPatterns are the kind of patterns a large C or Go tree carries.
var ignoreBenchPatterns = `
.*
*.a
*.o
*.ko
*.so
*.mod
*.cmd
*.tmp
*.orig
*~
/build/
/dist/
modules.order
Module.symvers
/vmlinux
tags
TAGS
!.gitignore
!.mailmap
node_modules/
__pycache__/
*.py[co]
`

// ignoreBenchPaths returns paths of a tree a few levels deep, with a file name mix in
// which most names are not ignored, as in a source tree.
func ignoreBenchPaths() []string {
	var out []string
	dirs := []string{"drivers/net/ethernet/intel", "fs/ext4", "kernel/sched", "arch/x86/kernel/cpu", "tools/perf/util", "src/cmd/compile/internal/ssa"}
	names := []string{"main.c", "main.o", "util.h", "Makefile", "Kconfig", "sched.c", "README", "x_test.go", "core.ko", ".gitignore", "fair.c", "tags"}
	for i := 0; i < 200; i++ {
		for _, d := range dirs {
			for _, n := range names {
				out = append(out, path.Join(d, strings.Repeat("sub/", i%3), n))
			}
		}
	}
	return out
}

// BenchmarkIgnore compares llmfs's matcher with go-git's plumbing/format/gitignore on the
// same patterns and paths, one call per path as a walk makes them. go-git's Matcher
// tries every pattern against every leading part of the path for each call; llmfs's relies
// on the walk never entering an ignored directory, so it tries each pattern once per entry.
func BenchmarkIgnore(b *testing.B) {
	paths := ignoreBenchPaths()
	b.Run("llmfs", func(b *testing.B) {
		ig := parseIgnore(nil, ".", []byte(ignoreBenchPatterns))
		for b.Loop() {
			for _, p := range paths {
				ig.ignored(p, path.Base(p), false)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/path")
	})
	b.Run("go-git", func(b *testing.B) {
		var ps []gitignore.Pattern
		for line := range strings.SplitSeq(ignoreBenchPatterns, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				ps = append(ps, gitignore.ParsePattern(line, nil))
			}
		}
		m := gitignore.NewMatcher(ps)
		split := make([][]string, len(paths))
		for i, p := range paths {
			split[i] = strings.Split(p, "/")
		}
		for b.Loop() {
			for _, p := range split {
				m.Match(p, false)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/path")
	})
}
