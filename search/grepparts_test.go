//go:build !js && !wasip1

package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestGrepFuncHugeFileBounded checks that the output of one file with over a million
// matching lines is handed on as it is found, not held whole: the live heap, measured
// after a collection while the entries are yielded, stays far below what the file's
// entries would take (about 90 MiB), searched alone and as one file in a tree.
func TestGrepFuncHugeFileBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 16 MiB file")
	}
	dir := t.TempDir()
	const lines = 1_200_000
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "match %07d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "huge.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := os.WriteFile(filepath.Join(dir, "small.txt"), []byte("match\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := hostStore(t, dir)
	const limit = 24 << 20
	for _, name := range []string{"huge.txt", "."} {
		var peak uint64
		n := 0
		_, err := GrepFunc(context.Background(), s, name, GrepOptions{Pattern: "match", Mode: Content, LineNumbers: true}, func(e Entry) bool {
			n++
			if n%200_000 == 0 {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		want := lines
		if name == "." {
			want++
		}
		if n != want {
			t.Errorf("grep %s: %d entries, want %d", name, n, want)
		}
		if peak == 0 || peak > limit {
			t.Errorf("grep %s: live heap %.1f MiB while yielding, want at most %d MiB", name, float64(peak)/(1<<20), limit>>20)
		}
	}
}

// TestGrepPartsContext checks that a file's output handed on in parts reads as if it had
// been whole: line numbers in order, context lines across the cuts, a separator exactly
// where lines are skipped and one between files, and head limits counted over all parts.
func TestGrepPartsContext(t *testing.T) {
	dir := t.TempDir()
	const lines = 60_000 // about 5 MiB of entries: many parts
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		if i%5 == 0 {
			fmt.Fprintf(&b, "match %d %s\n", i, strings.Repeat("y", 40))
		} else {
			fmt.Fprintf(&b, "other %d %s\n", i, strings.Repeat("z", 40))
		}
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := hostStore(t, dir)
	ctx := context.Background()

	// The expected entries of one file with one line of context on each side: lines
	// 4, 5, 6, then a separator, then 9, 10, 11, and so on.
	var one []Entry
	for i := 1; i <= lines; i++ {
		switch i % 5 {
		case 4:
			if i > 4 {
				one = append(one, Entry{Kind: KindSeparator})
			}
			one = append(one, Entry{Kind: KindContext, Path: "a.txt", Line: i})
		case 0:
			one = append(one, Entry{Kind: KindMatch, Path: "a.txt", Line: i})
		case 1:
			if i > 1 {
				one = append(one, Entry{Kind: KindContext, Path: "a.txt", Line: i})
			}
		}
	}
	check := func(t *testing.T, got, want []Entry) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%d entries, want %d", len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Kind != w.Kind || g.Path != w.Path || g.Line != w.Line {
				t.Fatalf("entry %d: %v %q line %d, want %v %q line %d", i, g.Kind, g.Path, g.Line, w.Kind, w.Path, w.Line)
			}
		}
	}
	opts := GrepOptions{Pattern: "^match", Mode: Content, LineNumbers: true, Before: 1, After: 1}

	t.Run("one file", func(t *testing.T) {
		res, err := Grep(ctx, s, "a.txt", opts)
		if err != nil {
			t.Fatal(err)
		}
		check(t, res.Entries, one)
	})
	t.Run("tree", func(t *testing.T) {
		want := append([]Entry{}, one...)
		want = append(want, Entry{Kind: KindSeparator})
		for _, e := range one {
			if e.Kind != KindSeparator {
				e.Path = "b.txt"
			}
			want = append(want, e)
		}
		for _, threads := range []int{1, 2, 4} {
			o := opts
			o.Threads = threads
			res, err := Grep(ctx, s, ".", o)
			if err != nil {
				t.Fatal(err)
			}
			check(t, res.Entries, want)
		}
	})
	t.Run("head limit", func(t *testing.T) {
		o := opts
		o.Offset, o.HeadLimit = 10_000, 30_000
		res, err := Grep(ctx, s, "a.txt", o)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Truncated {
			t.Error("not truncated")
		}
		check(t, res.Entries, one[10_000:40_000])
	})
}
