//go:build !js && !wasip1

package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/osdir"
)

func hostStore(t *testing.T, dir string) *osdir.Store {
	t.Helper()
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func grepPaths(t *testing.T, s store.Store, name string, o GrepOptions) []string {
	t.Helper()
	res, err := Grep(context.Background(), s, name, o)
	if err != nil {
		t.Fatalf("Grep(%q, %+v): %v", name, o, err)
	}
	var out []string
	for _, e := range res.Entries {
		out = append(out, e.Path)
	}
	return out
}

// TestPagination checks that pages of every size, concatenated, equal the unpaginated
// result, and that Truncated is set on every page but the last.
func TestPagination(t *testing.T) {
	dir := corpus(t)
	s := hostStore(t, dir)
	for _, o := range []GrepOptions{
		{Pattern: "foo"},
		{Pattern: "foo", Mode: Count},
		{Pattern: "foo", Mode: Content, LineNumbers: true},
		{Pattern: "foo", Mode: Content, LineNumbers: true, Before: 1, After: 2},
		{Pattern: `begin.*?end`, Mode: Content, LineNumbers: true, Multiline: true, After: 1},
	} {
		whole, err := Grep(context.Background(), s, ".", o)
		if err != nil {
			t.Fatal(err)
		}
		if whole.Truncated || len(whole.Entries) < 5 {
			t.Fatalf("%+v: %d entries, truncated %v; want >= 5, not truncated", o, len(whole.Entries), whole.Truncated)
		}
		for _, size := range []int{1, 2, 3, 7, 50} {
			var pages []Entry
			for off := 0; ; off += size {
				p := o
				p.Offset, p.HeadLimit = off, size
				res, err := Grep(context.Background(), s, ".", p)
				if err != nil {
					t.Fatal(err)
				}
				pages = append(pages, res.Entries...)
				more := off+size < len(whole.Entries)
				if res.Truncated != more {
					t.Errorf("%+v offset %d size %d: Truncated = %v, want %v", o, off, size, res.Truncated, more)
				}
				if !res.Truncated {
					break
				}
			}
			if !slices.Equal(pages, whole.Entries) {
				t.Errorf("%+v: pages of %d concatenated differ from the whole:\n%v\n%v", o, size, pages, whole.Entries)
			}
		}
		past := o
		past.Offset = len(whole.Entries) + 3
		if res, err := Grep(context.Background(), s, ".", past); err != nil || len(res.Entries) != 0 || res.Truncated {
			t.Errorf("%+v: offset past the end gave %v, %v", o, res, err)
		}
	}
}

// TestSymlinks checks that links are not followed by default, and that with Follow only
// those that stay inside the root are.
func TestSymlinks(t *testing.T) {
	dir := corpus(t)
	if err := os.Symlink("sub", filepath.Join(dir, "sublink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".", filepath.Join(dir, "sub", "loop")); err != nil {
		t.Fatal(err)
	}
	s := hostStore(t, dir)
	for _, st := range []store.Store{s, plainStore{s}} {
		got := grepPaths(t, st, ".", GrepOptions{Pattern: "foo"})
		for _, p := range got {
			if strings.Contains(p, "link") {
				t.Errorf("followed a symbolic link without Follow: %s", p)
			}
		}
		got = grepPaths(t, st, ".", GrepOptions{Pattern: "foo", Follow: true})
		if !slices.Contains(got, "link-in.go") {
			t.Errorf("Follow: link-in.go (inside) missing from %v", got)
		}
		for _, p := range got {
			if strings.Contains(p, "out") && p != "build/out.go" {
				t.Errorf("Follow: reached outside the root: %s", p)
			}
		}
		if _, ok := st.(*osdir.Store); ok && !slices.Contains(got, "sublink/begin.txt") {
			t.Errorf("Follow on the host: sublink/begin.txt missing from %v", got)
		}
	}
	// The host fast path refuses, at the system call, a path through a link that leads out.
	hf, err := pickFS(s)
	if err != nil {
		t.Fatal(err)
	}
	defer hf.close()
	if r, err := hf.open(context.Background(), "linkdir-out/out.txt"); err == nil {
		r.Close()
		t.Error("opened linkdir-out/out.txt through a link that leads out")
	}
	if _, err := hf.readDir(context.Background(), "linkdir-out"); err == nil {
		t.Error("listed linkdir-out through a link that leads out")
	}
	if r, err := hf.open(context.Background(), "sublink/begin.txt"); err != nil {
		t.Errorf("open through a link that stays inside: %v", err)
	} else {
		r.Close()
	}
	// Explicitly naming a link that leads out is refused.
	if _, err := Grep(context.Background(), s, "link-out.txt", GrepOptions{Pattern: "foo"}); err == nil {
		t.Error("Grep on a link that leads out succeeded")
	}
	if _, err := Grep(context.Background(), s, "linkdir-out", GrepOptions{Pattern: "foo"}); err == nil {
		t.Error("Grep on a directory link that leads out succeeded")
	}
}

// TestBinary checks that a NUL byte in the first 8000 bytes makes a file binary, and one
// further on does not.
func TestBinary(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"early.bin": "foo\x00\n",
		"late.txt":  strings.Repeat("a\n", 4100) + "\x00 foo\n",
		"plain.txt": "foo\n",
	})
	got := grepPaths(t, hostStore(t, dir), ".", GrepOptions{Pattern: "foo"})
	if want := []string{"late.txt", "plain.txt"}; !slices.Equal(got, want) {
		t.Errorf("Grep = %v, want %v", got, want)
	}
}

// TestMemStore runs the engine over a store with no host directory.
func TestMemStore(t *testing.T) {
	ctx := context.Background()
	s := mem.New()
	for _, d := range []string{"d", "d/e", ".h"} {
		if err := s.Mkdir(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		"a.go": "foo\n", "d/b.go": "x\nfoo\n", "d/e/c.txt": "foo\n", "d/.gitignore": "*.txt\n",
		".h/x.go": "foo\n", "bin": "\x00foo",
	} {
		if _, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := grepPaths(t, s, ".", GrepOptions{Pattern: "foo"}), []string{"a.go", "d/b.go"}; !slices.Equal(got, want) {
		t.Errorf("Grep = %v, want %v", got, want)
	}
	if got, want := grepPaths(t, s, "d/e", GrepOptions{Pattern: "foo"}), []string(nil); !slices.Equal(got, want) {
		t.Errorf("Grep in d/e = %v, want %v (ignored by d/.gitignore)", got, want)
	}
	if got, want := grepPaths(t, s, ".", GrepOptions{Pattern: "foo", Hidden: true, NoIgnore: true}), []string{".h/x.go", "a.go", "d/b.go", "d/e/c.txt"}; !slices.Equal(got, want) {
		t.Errorf("Grep hidden, no ignore = %v, want %v", got, want)
	}
	res, err := Grep(ctx, s, ".", GrepOptions{Pattern: "foo", Mode: Content, LineNumbers: true})
	if err != nil || len(res.Entries) != 2 || res.Entries[1].Line != 2 {
		t.Errorf("Grep content = %+v, %v", res, err)
	}
	f, err := Find(ctx, s, ".", FindOptions{Pattern: "*.go"})
	if err != nil || len(f.Files) != 2 {
		t.Errorf("Find = %+v, %v", f, err)
	}
}

func TestErrors(t *testing.T) {
	s := hostStore(t, t.TempDir())
	ctx := context.Background()
	for _, o := range []GrepOptions{
		{Pattern: "a("}, {Pattern: "[z-a]"}, {Pattern: "a", Glob: "[a"}, {Pattern: "a", Type: "nosuchtype"},
		{Pattern: "a", Mode: "lines"}, {Pattern: "a", HeadLimit: -1},
	} {
		_, err := Grep(ctx, s, ".", o)
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("Grep(%+v) = %v, want a *PatternError", o, err)
		}
	}
	_, err := Grep(ctx, s, ".", GrepOptions{Pattern: "a("})
	if err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Errorf("bad regex error %q does not carry the parser's message", err)
	}
	for _, p := range []string{"[a", "", "/abs", "../*.go", "d/../*.go", "d/./a.go", "d//a.go", "**/.."} {
		if _, err := Find(ctx, s, ".", FindOptions{Pattern: p}); err == nil {
			t.Errorf("Find(%q) succeeded", p)
		}
	}
	if _, err := Grep(ctx, s, "missing", GrepOptions{Pattern: "a"}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Grep on a missing path = %v, want ErrNotExist", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Grep(cctx, s, ".", GrepOptions{Pattern: "a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Grep with a cancelled context = %v", err)
	}
}

func TestFind(t *testing.T) {
	dir := corpus(t)
	s := hostStore(t, dir)
	ctx := context.Background()
	find := func(o FindOptions) []string {
		t.Helper()
		res, err := Find(ctx, s, ".", o)
		if err != nil {
			t.Fatalf("Find(%+v): %v", o, err)
		}
		var out []string
		for _, f := range res.Files {
			out = append(out, f.Path)
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		o    FindOptions
		want []string
	}{
		{FindOptions{Pattern: "*.go"}, []string{"a.go", "sub/a.go"}},
		{FindOptions{Pattern: "**/*.go"}, []string{"a.go", "sub/a.go"}},
		{FindOptions{Pattern: "*.go", NoIgnore: true}, []string{"a.go", "build/out.go", "sub/a.go"}},
		{FindOptions{Pattern: "sub/**/*.{ts,rs}"}, []string{"sub/deep/x.ts", "sub/deep/z.rs"}},
		{FindOptions{Pattern: "sub/*.go"}, []string{"sub/a.go"}},
		{FindOptions{Pattern: "./sub/deep/[wx].*"}, []string{"sub/deep/w.c", "sub/deep/x.ts"}},
		{FindOptions{Pattern: "*.log"}, []string{"keep.log"}},
		{FindOptions{Pattern: "*.yaml"}, nil},
		{FindOptions{Pattern: "*.yaml", Hidden: true}, []string{".config/x.yaml"}},
		{FindOptions{Pattern: ".config/*"}, []string{".config/x.yaml"}},
		{FindOptions{Pattern: "nosuchdir/**"}, nil},
		{FindOptions{Pattern: "HEAD", Hidden: true}, []string{".git/HEAD"}},
		{FindOptions{Pattern: "*out*"}, nil}, // links are not followed
	} {
		if got := find(tc.o); !slices.Equal(got, tc.want) {
			t.Errorf("Find(%+v) = %q, want %q", tc.o, got, tc.want)
		}
	}

	// Newest first, ties by path, capped.
	now := time.Now()
	for i, name := range []string{"sub/deep/x.ts", "a.go", "c.py", "sub/a.go"} {
		mt := now.Add(-time.Duration(i) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, name), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Find(ctx, s, ".", FindOptions{Pattern: "*.{go,ts,py}", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path)
	}
	if want := []string{"sub/deep/x.ts", "a.go", "c.py"}; !slices.Equal(got, want) || !res.Truncated {
		t.Errorf("Find newest first = %q (truncated %v), want %q, truncated", got, res.Truncated, want)
	}
	if _, err := Find(ctx, s, "a.go", FindOptions{Pattern: "*"}); !errors.Is(err, store.ErrNotDir) {
		t.Errorf("Find in a file = %v, want ErrNotDir", err)
	}
}

// TestBigProgram checks the path for patterns too big for the DFA, against the DFA's.
func TestBigProgram(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "abc\n" + strings.Repeat("word ", 310) + "\nxyz\n"})
	s := hostStore(t, dir)
	big := `(\pL+ ){300}`
	m, err := compile(big, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.dfa != nil {
		t.Fatalf("%s: %d instructions got a DFA, want none", big, len(m.dfa.prog.Inst))
	}
	res, err := Grep(context.Background(), s, ".", GrepOptions{Pattern: big, Mode: Content, LineNumbers: true})
	if err != nil || len(res.Entries) != 1 || res.Entries[0].Line != 2 {
		t.Errorf("Grep(%s) = %+v, %v; want line 2", big, res, err)
	}
}

// TestGrepMultilineOverlap checks that a multiline match that begins on the line where the
// previous one ended is found, and counted.
//
// Issue 13.3: the search went on after the line of the last match, so `b\na` over
// "ab\nab\nab\n" showed lines 1-2 (ripgrep: 1-3) and counted 1 (ripgrep: 2).
func TestGrepMultilineOverlap(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"t": "ab\nab\nab\n", "u": "xxx\nabc\ndefxxxabc\ndefxxx\nxxx"})
	s := hostStore(t, dir)
	for _, c := range []struct {
		name, pattern string
		mode          OutputMode
		want          string
	}{
		{"t", `b\na`, Content, "t:1:ab\nt:2:ab\nt:3:ab\n"},
		{"t", `b\na`, Count, "t:2\n"},
		{"u", `abc\ndef`, Content, "u:2:abc\nu:3:defxxxabc\nu:4:defxxx\n"},
		{"u", `abc\ndef`, Count, "u:2\n"},
	} {
		res, err := Grep(context.Background(), s, c.name, GrepOptions{Pattern: c.pattern, Mode: c.mode, LineNumbers: true, Multiline: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Text(); got != c.want {
			t.Errorf("%s %q %s: got %q, want %q", c.name, c.pattern, c.mode, got, c.want)
		}
	}
}
