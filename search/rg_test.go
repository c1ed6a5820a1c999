//go:build !js && !wasip1

package search

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// writeTree creates files under dir; a name ending in "/" is a directory.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// corpus builds the tree the ripgrep comparisons run on: ignore files at two levels,
// hidden files, a binary file, CRLF, a missing final newline, a line longer than the
// search buffer, a file many buffers long, and a symbolic link that leads out.
func corpus(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	var big strings.Builder
	for i := 1; i <= 60000; i++ {
		if i%997 == 0 || i%4093 == 1 {
			fmt.Fprintf(&big, "line %d foo bar match here\n", i)
		} else {
			fmt.Fprintf(&big, "line %d filler text to push the file past several buffers\n", i)
		}
	}
	long := strings.Repeat("x", 300<<10) + " foo at the end of a long line\nshort foo line\n"
	writeTree(t, dir, map[string]string{
		"a.go":             "package a\n\nfunc main() {\n\tfoo := 1\n\t_ = foo\n}\n// TODO: foo bar\n",
		"b.txt":            "Foo\nfoo\nFOO\nfoo bar baz\nnothing here\n\nfoo\nbar\n",
		"c.py":             "def foo():\n    return 42\n\n\nclass Bar:\n    pass  # 123 456\n",
		"crlf.txt":         "foo\r\nbar\r\nfoo bar\r\n",
		"nofinal.txt":      "one\ntwo foo\nthree foo",
		"unicode.md":       "# Überschrift\nstraße foo\nΚαλημέρα κόσμε\nKelvin \u212a and s \u017f\n",
		"empty.txt":        "",
		"big.log":          "ignored by .gitignore foo\n",
		"keep.log":         "kept by a negation foo\n",
		"secret.txt":       "ignored by .ignore foo\n",
		".gitignore":       "*.log\n!keep.log\nbuild/\n",
		".ignore":          "secret.txt\n",
		".hidden.txt":      "hidden foo\n",
		".config/x.yaml":   "key: foo\n",
		".git/HEAD":        "ref: foo\n",
		"build/out.go":     "package build // foo\n",
		"sub/a.go":         "package sub\n\nfunc Foo() int {\n\treturn 1\n}\n\nfunc Bar() {}\n",
		"sub/local.txt":    "ignored by sub/.gitignore foo\n",
		"sub/.gitignore":   "/local.txt\n",
		"sub/deep/x.ts":    "export const foo = 1;\nconst bar = `foo\nbar`;\n",
		"sub/deep/y.json":  "{\"foo\": [1, 2, 3]}\n",
		"sub/deep/z.rs":    "fn main() { println!(\"foo\"); }\n",
		"many.txt":         big.String(),
		"long.txt":         long,
		"bin.dat":          "\x00\x01binary foo\n",
		"sub/begin.txt":    "begin\nfoo\nend\nbegin x end\nfoo\n",
		"nomatch/zzz.txt":  "nothing\n",
		"sub/deep/w.c":     "int foo(void);\n",
		"space name.txt":   "foo with a space in the name\n",
		"dash-name.txt":    "foo-bar\n",
		"bom.txt":          "\xef\xbb\xbffoo after a byte order mark\nfoo\n",
		"overlap/1.txt":    "ab\nab\nab\n",
		"overlap/2.txt":    "xxx\nabc\ndefxxxabc\ndefxxx\nxxx",
		"overlap/3.txt":    "xxx\nabc\ndefabc\ndefxxx\nxxx",
		"overlap/4.txt":    "aa\nb\naa\nabab\nx\n",
		"sub/deep/ctx.txt": "1\n2\n3\nfoo\n5\n6\n7\n8\nfoo\n10\nfoo\n12\n13\n14\n15\n16\nfoo\n",
	})
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"out.txt": "outside foo\n"})
	if err := os.Symlink(filepath.Join(outside, "out.txt"), filepath.Join(dir, "link-out.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linkdir-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.go", filepath.Join(dir, "link-in.go")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// plainStore hides every capability of a store but [store.Store], so the generic path
// runs on the same tree as the host fast path.
type plainStore struct{ store.Store }

// engineText runs Grep and renders the result as ripgrep's lines.
func engineText(t *testing.T, s store.Store, name string, o GrepOptions) string {
	t.Helper()
	res, err := Grep(context.Background(), s, name, o)
	if err != nil {
		t.Fatalf("Grep(%q, %+v): %v", name, o, err)
	}
	var b strings.Builder
	for _, e := range res.Entries {
		b.WriteString(FormatEntry(e, res.LineNumbers))
		b.WriteByte('\n')
	}
	return b.String()
}

// rgArgs translates options into ripgrep's flags.
func rgArgs(o GrepOptions, path string) []string {
	args := []string{"--no-config", "--sort", "path", "--no-require-git", "--color", "never", "-H"}
	switch o.Mode {
	case "", FilesWithMatches:
		args = append(args, "-l")
	case Count:
		args = append(args, "-c")
	case Content:
		if o.LineNumbers {
			args = append(args, "-n")
		} else {
			args = append(args, "-N")
		}
	}
	if o.IgnoreCase {
		args = append(args, "-i")
	}
	if o.Multiline {
		args = append(args, "-U", "--multiline-dotall")
	}
	if o.Before > 0 {
		args = append(args, "-B", fmt.Sprint(o.Before))
	}
	if o.After > 0 {
		args = append(args, "-A", fmt.Sprint(o.After))
	}
	if o.Glob != "" {
		args = append(args, "-g", o.Glob)
	}
	if o.Type != "" {
		args = append(args, "-t", o.Type)
	}
	if o.Hidden {
		args = append(args, "--hidden")
	}
	if o.NoIgnore {
		args = append(args, "--no-ignore")
	}
	args = append(args, "-e", o.Pattern)
	if path != "." {
		args = append(args, path)
	}
	return args
}

func rgText(t *testing.T, dir string, o GrepOptions, path string) string {
	t.Helper()
	cmd := exec.Command("rg", rgArgs(o, path)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("rg %q: %v\n%s", rgArgs(o, path), err, stderr.String())
		}
	}
	return string(out)
}

func needRG(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("ripgrep (rg) is not installed: apt-get install -y ripgrep; skipping the comparisons with it")
	}
}

// TestGrepMatchesRipgrep compares the engine's output with ripgrep's, byte for byte, for
// every output mode and flag, on the host fast path and on the generic store path.
func TestGrepMatchesRipgrep(t *testing.T) {
	needRG(t)
	dir := corpus(t)
	host, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	stores := map[string]store.Store{"host": host, "generic": plainStore{host}}

	type test struct {
		path string
		o    GrepOptions
	}
	patterns := []string{
		"foo",           // a literal
		"fo+ ba[rz]",    // a regex with a literal inside
		"[0-9]{3}",      // no literal
		`^\s*$`,         // empty lines
		`^func \w+`,     // anchored
		`bar$`,          // anchored at the end (not before \r)
		`foo|Bar`,       // alternation
		`\bfoo\b`,       // word boundaries
		`o\sb`,          // could span lines, must not
		`straße|κόσμε`,  // non-ASCII
		`.`,             // everything
		`line \d+7 foo`, // in the big file, across buffers
		`at the end`,    // at the end of a line longer than the buffer
		`(?i)kelvin K`,  // case folding beyond ASCII
		`x{3}y?`,        // a repeat inside the long line
		`FOO`,           // case
		`ba(r|z)`,       // literal prefix, alternation after
		`[a-z]+_[a-z]+`, // nothing
		`(foo)+ (bar)`,  // captures
		`K`,             // matches the Kelvin sign only when folding
		`^foo`,          // at the start of a file after a byte order mark (issue 13.7)
	}
	var tests []test
	for _, p := range patterns {
		for _, mode := range []OutputMode{FilesWithMatches, Count, Content} {
			tests = append(tests, test{".", GrepOptions{Pattern: p, Mode: mode, LineNumbers: true}})
			tests = append(tests, test{".", GrepOptions{Pattern: p, Mode: mode, LineNumbers: true, IgnoreCase: true}})
		}
		tests = append(tests, test{".", GrepOptions{Pattern: p, Mode: Content}})
		tests = append(tests, test{".", GrepOptions{Pattern: p, Mode: Content, LineNumbers: true, Before: 2, After: 2}})
	}
	for _, c := range []struct{ b, a int }{{1, 0}, {0, 1}, {1, 1}, {3, 3}, {2, 5}, {0, 4}} {
		tests = append(tests,
			test{".", GrepOptions{Pattern: "foo", Mode: Content, LineNumbers: true, Before: c.b, After: c.a}},
			test{"sub/deep/ctx.txt", GrepOptions{Pattern: "foo", Mode: Content, LineNumbers: true, Before: c.b, After: c.a}},
			test{".", GrepOptions{Pattern: "foo", Mode: Content, Before: c.b, After: c.a}},
			test{".", GrepOptions{Pattern: `line \d+7 foo`, Mode: Content, LineNumbers: true, Before: c.b, After: c.a}},
		)
	}
	for _, p := range []string{`foo\nbar`, `begin.*?end`, `foo.bar`, `\d+\n\d+`, `^foo$`, `foo`, `o\s+b`, `[0-9]{3}`} {
		for _, mode := range []OutputMode{FilesWithMatches, Count, Content} {
			tests = append(tests, test{".", GrepOptions{Pattern: p, Mode: mode, LineNumbers: true, Multiline: true}})
		}
		tests = append(tests, test{".", GrepOptions{Pattern: p, Mode: Content, LineNumbers: true, Multiline: true, Before: 1, After: 2}})
	}
	// Issue 13.3: matches that begin on the line where the last one ended (ripgrep's
	// multiline overlap1 and overlap2).
	for _, p := range []string{`b\na`, `abc\ndef`, `a\n?`, `b|ab\n`, `^a\n?`, `\bab\n`, `b\n`, `a\n*`} {
		for _, mode := range []OutputMode{FilesWithMatches, Count, Content} {
			tests = append(tests, test{"overlap", GrepOptions{Pattern: p, Mode: mode, LineNumbers: true, Multiline: true}})
		}
		tests = append(tests, test{"overlap", GrepOptions{Pattern: p, Mode: Content, LineNumbers: true, Multiline: true, Before: 1, After: 1}})
	}
	for _, g := range []string{"*.go", "!*.txt", "sub/**", "*.{go,rs}", "sub/deep/*", "**/x.*", "[ab].*"} {
		tests = append(tests, test{".", GrepOptions{Pattern: "foo", Glob: g}})
		tests = append(tests, test{".", GrepOptions{Pattern: "foo", Glob: g, Mode: Content, LineNumbers: true}})
	}
	for _, ty := range []string{"go", "py", "ts", "rust", "json", "md", "c", "txt"} {
		tests = append(tests, test{".", GrepOptions{Pattern: "foo", Type: ty, Mode: Count}})
	}
	for _, w := range []GrepOptions{{Glob: "*.log"}, {Glob: "*.txt", Type: "txt"}, {Glob: "*.log", Type: "txt"}, {Glob: "!b.txt", Type: "txt"}, {Glob: ".*"}, {Hidden: true}, {NoIgnore: true}, {Hidden: true, NoIgnore: true}} {
		w.Pattern = "foo"
		tests = append(tests, test{".", w})
		w.Mode = Count
		tests = append(tests, test{".", w})
	}
	for _, p := range []string{"sub", "sub/deep", "a.go", "crlf.txt", "nomatch"} {
		tests = append(tests, test{p, GrepOptions{Pattern: "foo", Mode: Content, LineNumbers: true}})
		tests = append(tests, test{p, GrepOptions{Pattern: "foo"}})
	}

	for i, tc := range tests {
		want := rgText(t, dir, tc.o, tc.path)
		for sname, s := range stores {
			got := engineText(t, s, tc.path, tc.o)
			if got != want {
				t.Errorf("%d %s: Grep(%q) with %+v differs from rg %q\n got:\n%s\nwant:\n%s",
					i, sname, tc.path, tc.o, rgArgs(tc.o, tc.path), clip(got), clip(want))
			}
		}
	}
}

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "...(clipped)"
	}
	return s
}

// TestGrepIgnoreFilesMatchRipgrep compares the engine with ripgrep on ignore files as
// ripgrep reads them.
//
// Issue 13.4-7: "vendor/**" then "!vendor/manifest" must take vendor/manifest back; a
// hidden name taken back with "!" is searched; a nested repository is a boundary for the
// outer .gitignore; .git/info/exclude and .rgignore are read, with ripgrep's precedence
// (.rgignore > .ignore > .gitignore > exclude); a UTF-8 BOM does not hide the first
// pattern.
func TestGrepIgnoreFilesMatchRipgrep(t *testing.T) {
	needRG(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".git/HEAD":                 "ref: refs/heads/main\n",
		".git/info/exclude":         "excluded.txt\n!kept-by-exclude.txt\n",
		".gitignore":                "vendor/**\n!vendor/manifest\n!.foo\n*.gen\nignored-by-git.txt\nkept-by-exclude.txt\nhalf/\n",
		".ignore":                   "*.tmp\n!half/\n",
		".rgignore":                 "rgonly.txt\n!ignored-by-git.txt\n",
		"a.txt":                     "foo\n",
		"excluded.txt":              "foo\n",
		"kept-by-exclude.txt":       "foo\n",
		"ignored-by-git.txt":        "foo\n",
		"rgonly.txt":                "foo\n",
		"top.gen":                   "foo\n",
		"top.tmp":                   "foo\n",
		".foo":                      "foo\n",
		".bar":                      "foo\n",
		"half/x.txt":                "foo\n",
		"vendor/manifest":           "foo\n",
		"vendor/lib.go":             "foo\n",
		"vendor/sub/x.txt":          "foo\n",
		"nested/.git/HEAD":          "ref: refs/heads/main\n",
		"nested/.git/info/exclude":  "inner-excluded.txt\n",
		"nested/a.gen":              "foo\n",
		"nested/b.tmp":              "foo\n",
		"nested/inner-excluded.txt": "foo\n",
		"nested/local.txt":          "foo\n",
		"nested/.gitignore":         "local.txt\n",
		"nested/deep/c.gen":         "foo\n",
		"worktree/.git":             "gitdir: /nowhere\n",
		"worktree/w.gen":            "foo\n",
		"dotdir/.hidden/h.txt":      "foo\n",
		"dotdir/.gitignore":         "!.hidden/\n",
	})
	host, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	for _, path := range []string{".", "nested", "nested/deep", "worktree", "dotdir"} {
		for _, o := range []GrepOptions{{Pattern: "foo"}, {Pattern: "foo", Hidden: true}, {Pattern: "foo", NoIgnore: true}, {Pattern: "foo", Mode: Count}, {Pattern: "foo", Glob: "*.gen"}} {
			want := rgText(t, dir, o, path)
			for sname, s := range map[string]store.Store{"host": host, "generic": plainStore{host}} {
				if got := engineText(t, s, path, o); got != want {
					t.Errorf("%s: Grep(%q) with %+v differs from rg %q\n got:\n%s\nwant:\n%s", sname, path, o, rgArgs(o, path), got, want)
				}
			}
		}
	}
}

// TestGrepNamedBinaryMatchesRipgrep checks that where ripgrep says "binary file matches"
// for a file named on its command line, the engine reports the file binary rather than
// giving an empty result (issue 13.8); and that a text file is not.
func TestGrepNamedBinaryMatchesRipgrep(t *testing.T) {
	needRG(t)
	dir := corpus(t)
	host, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	for _, name := range []string{"bin.dat", "a.go"} {
		o := GrepOptions{Pattern: "foo", Mode: Content, LineNumbers: true}
		rgBinary := strings.Contains(rgText(t, dir, o, name), "binary file matches")
		res, err := Grep(context.Background(), host, name, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Binary != rgBinary || res.Binary && len(res.Entries) != 0 {
			t.Errorf("%s: Binary %v with %d entries; rg says binary: %v", name, res.Binary, len(res.Entries), rgBinary)
		}
	}
}
