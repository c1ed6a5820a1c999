//go:build !js && !wasip1

package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// Issue 32.10 (ripgrep regression 1878): in multiline mode "(?-m)^baz" and "\Abaz"
// anchor at the start of the file, so baz on a later line does not match; "^baz"
// (multi-line by default, as in rg -U) still does. Compared with rg where it is installed.
func TestMultilineStartAnchors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("foo\nbaz\nbar\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "g.txt"), []byte("baz\nfoo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	host, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	for _, c := range []struct{ pattern, want string }{
		{`(?-m)^baz`, "g.txt:1:baz\n"},
		{`\Abaz`, "g.txt:1:baz\n"},
		{`(?-m)bar\n\z`, "f.txt:3:bar\n"},
		{`(?-m)foo$`, ""},
		{`^baz`, "f.txt:2:baz\ng.txt:1:baz\n"},
	} {
		o := GrepOptions{Pattern: c.pattern, Mode: Content, LineNumbers: true, Multiline: true}
		for name, s := range map[string]store.Store{"host": host, "generic": plainStore{host}} {
			got := engineText(t, s, ".", o)
			if got != c.want {
				t.Errorf("%s: -U %q = %q, want %q", name, c.pattern, got, c.want)
			}
		}
		if _, err := exec.LookPath("rg"); err == nil {
			if want := rgText(t, dir, o, "."); want != c.want {
				t.Errorf("rg -U %q = %q, this test wants %q", c.pattern, want, c.want)
			}
		}
	}
}
