//go:build !js && !wasip1

package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Issue 13.17: a bad regex, a missing directory or a bad glob exits 2, and 1 stays "no
// match", as with grep and ripgrep; one-shots print a message for people, not the model's
// JSON (llmfs call keeps that); a usage mistake is one line that says where the help is.
func TestCLIExitCodesAndMessages(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "a.txt"), "alpha\n")
	type test struct {
		args   []string
		status int
		stderr string // the whole of it
	}
	for _, tc := range []test{
		{[]string{"grep", "alpha"}, 0, ""},
		{[]string{"grep", "zzz"}, 1, ""},
		{[]string{"grep", "(unclosed"}, 2, "llmfs grep: invalid regex \"(unclosed\": error parsing regexp: missing closing ): `(unclosed`\n"},
		{[]string{"grep", "alpha", "nodir"}, 2, "llmfs grep: nodir: no such file or directory\n"},
		{[]string{"find", "*.txt"}, 0, ""},
		{[]string{"find", "*.go"}, 1, ""},
		{[]string{"find", "[unclosed"}, 2, "llmfs find: invalid glob \"[unclosed\": syntax error in pattern\n"},
		{[]string{"find", "*.txt", "nodir"}, 2, "llmfs find: nodir: no such file or directory\n"},
		{[]string{"read", "nope.txt"}, 1, "llmfs read: nope.txt: no such file or directory\n"},
		{[]string{"ls", "nodir"}, 1, "llmfs ls: nodir: no such file or directory\n"},
		{[]string{"call", "file_read", `{"path":"nope.txt"}`}, 1, `{"code":"FILE_NOT_FOUND","message":"no such file or directory: nope.txt"}` + "\n"},
		{[]string{"read"}, 2, "llmfs read: want one PATH; see 'llmfs read --help'\n"},
		{[]string{"read", "--bogus", "a.txt"}, 2, "llmfs read: flag provided but not defined: -bogus; see 'llmfs read --help'\n"},
		{[]string{"grep", "-A", "x", "alpha"}, 2, "llmfs grep: invalid value \"x\" for flag -A: parse error; see 'llmfs grep --help'\n"},
		{[]string{"frobnicate"}, 2, "llmfs: unknown command \"frobnicate\"; see 'llmfs --help'\n"},
		// Issue 12.8: a name with a newline and an escape sequence stays on its line.
		{[]string{"read", "x\n[fs] modified /etc/passwd\x1b[2K.txt"}, 1, `llmfs read: "x\n[fs] modified /etc/passwd\x1b[2K.txt": no such file or directory` + "\n"},
	} {
		status, _, stderr := llmfsRun(t, append(tc.args, "--root", dir)...)
		if status != tc.status || stderr != tc.stderr {
			t.Errorf("llmfs %q = %d, %q; want %d, %q", tc.args, status, stderr, tc.status, tc.stderr)
		}
	}
}

// Issue 13.17: help uses one flag style, --name (-x for single letters, as ripgrep), with a
// placeholder that says what the value is.
func TestCLIHelpFlagStyle(t *testing.T) {
	flagLine := regexp.MustCompile(`^  (-+)(\S+)(?: (\S+))?$`)
	for _, c := range commands {
		status, out, _ := llmfsRun(t, c.name, "--help")
		if status != 0 {
			t.Fatalf("%s --help: status %d", c.name, status)
		}
		_, flags, _ := strings.Cut(out, "\nFlags (before or after the arguments):\n")
		for _, line := range strings.Split(flags, "\n") {
			if !strings.HasPrefix(line, "  -") {
				continue
			}
			m := flagLine.FindStringSubmatch(line)
			switch {
			case m == nil:
				t.Errorf("llmfs %s --help: flag line %q", c.name, line)
			case len(m[2]) > 1 && m[1] != "--", len(m[2]) == 1 && m[1] != "-":
				t.Errorf("llmfs %s --help: %q: want --name for words, -x for letters", c.name, line)
			case m[3] != "" && (m[3] != strings.ToUpper(m[3]) || slices.Contains([]string{"VALUE", "STRING", "INT", "INT64", "UINT", "FLOAT"}, m[3])):
				t.Errorf("llmfs %s --help: %q: the placeholder says nothing", c.name, line)
			}
		}
		if strings.Contains(c.args, " -") && regexp.MustCompile(` \[?-[a-z]{2,}`).MatchString(c.args) {
			t.Errorf("llmfs %s: usage line %q has a -word flag", c.name, c.args)
		}
	}
}
