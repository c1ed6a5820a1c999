//go:build !js && !wasip1

package search

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestIgnoreMatchesGit compares the files the walk keeps with those git itself does not
// ignore (git ls-files --others --exclude-standard) on a tree of tricky .gitignore files.
func TestIgnoreMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install -y git); skipping the comparison with it")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore": strings.Join([]string{
			"# comment", "*.o", "!keep.o", "/root-only.txt", "build/", "docs/*.html", "**/gen/**",
			"tmp*", "*~", "[ab]?.c", "\\#hash", "trailing.txt   ", "deep/**/x.log", "/anchored/dir/",
			"**/any/name.txt", "*.d/", "", "!important.tmp", "sub/*.md",
			// Issue 13.4: the directory is entered, so the negation takes the file back.
			"vendor/**", "!vendor/manifest",
		}, "\n") + "\n",
		"a.o": "", "keep.o": "", "root-only.txt": "", "sub/root-only.txt": "", "build/x.c": "",
		"sub/build/y.c": "", "docs/a.html": "", "docs/sub/b.html": "", "src/gen/g.go": "",
		"gen/h.go": "", "tmpfile": "", "sub/tmp/z.go": "", "notes~": "", "a1.c": "", "ab.c": "",
		"c1.c": "", "#hash": "", "trailing.txt": "", "deep/x.log": "", "deep/a/b/x.log": "",
		"anchored/dir/f": "", "sub/anchored/dir/f": "", "q/any/name.txt": "", "any/name.txt": "",
		"dep.d/f": "", "file.d": "", "important.tmp": "", "sub/readme.md": "", "sub/x/readme.md": "",
		"sub/.gitignore": "*.txt\n!keep.txt\n/local/\n",
		"sub/a.txt":      "", "sub/keep.txt": "", "sub/local/f.go": "", "sub/x/local/f.go": "",
		"sub/x/.gitignore": "!*.txt\n", "sub/x/b.txt": "", "plain.go": "", ".hidden": "",
		"vendor/manifest": "", "vendor/lib.go": "", "vendor/sub/x.txt": "",
		// Issue 13.7: a byte order mark does not hide the first pattern.
		"bom/.gitignore": "\xef\xbb\xbfbom.txt\n", "bom/bom.txt": "", "bom/other.txt": "",
		"excluded.txt": "", "sub/excluded.txt": "",
	})
	cmd := exec.Command("git", "init", "-q", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// Issue 13.7: the repository's own exclude file is read too.
	writeTree(t, dir, map[string]string{".git/info/exclude": "excluded.txt\n"})
	cmd = exec.Command("git", "-c", "core.excludesFile=/dev/null", "ls-files", "--others", "--exclude-standard")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	want := strings.Fields(string(out))
	slices.Sort(want)

	res, err := Find(context.Background(), hostStore(t, dir), ".", FindOptions{Pattern: "*", Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		if !strings.HasPrefix(f.Path, ".git/") {
			got = append(got, f.Path)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("files kept by the walk differ from git's\n got: %q\nwant: %q", got, want)
	}
}

// TestIgnoreReincludeUnderDirGlob checks that "dir/**" then "!dir/file" searches dir/file,
// from the root and from dir itself.
//
// Issue 13.4: the trailing "/**" matched the directory, which was pruned before the
// negation could take the file back.
func TestIgnoreReincludeUnderDirGlob(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore": "vendor/**\n!vendor/manifest\n", "vendor/manifest": "foo\n", "vendor/lib.go": "foo\n", "a.txt": "foo\n",
	})
	s := hostStore(t, dir)
	for path, want := range map[string][]string{".": {"a.txt", "vendor/manifest"}, "vendor": {"vendor/manifest"}} {
		if got := grepPaths(t, s, path, GrepOptions{Pattern: "foo"}); !slices.Equal(got, want) {
			t.Errorf("grep %s: %q, want %q", path, got, want)
		}
	}
}

// TestIgnoreHiddenWhitelist checks that a hidden name taken back by "!" is searched, and
// that a nested repository stops the outer .gitignore but not the outer .ignore.
//
// Issue 13.5 and 13.6 (ripgrep regressions 90 and 3173, ignore_git_parent_stop).
func TestIgnoreHiddenWhitelist(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore": "!.foo\n*.gen\n", ".ignore": "*.tmp\n", ".foo": "foo\n", ".bar": "foo\n",
		"inner/.git/HEAD": "x\n", "inner/a.gen": "foo\n", "inner/b.tmp": "foo\n", "c.gen": "foo\n",
	})
	got := grepPaths(t, hostStore(t, dir), ".", GrepOptions{Pattern: "foo"})
	if want := []string{".foo", "inner/a.gen"}; !slices.Equal(got, want) {
		t.Errorf("grep: %q, want %q", got, want)
	}
}
