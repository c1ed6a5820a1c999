//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docCommand is one llmfs command line a documentation page shows in a sh block.
type docCommand struct {
	file, line string
	args       []string // after "llmfs"
}

var shBlockRE = regexp.MustCompile("(?s)```sh\n(.*?)```")

// docCommands returns the llmfs command lines of the sh blocks of README.md and docs/*.md,
// spelled `llmfs ARGS`, `go run ./cmd/llmfs ARGS` or `npx [-y] llmfs ARGS`.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docCommand
	for _, page := range append([]string{"../../README.md"}, pages...) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range shBlockRE.FindAllStringSubmatch(string(b), -1) {
			for _, line := range strings.Split(m[1], "\n") {
				for _, words := range shellCommands(line) {
					if args, ok := llmfsArgs(words); ok {
						out = append(out, docCommand{filepath.Base(page), line, args})
					}
				}
			}
		}
	}
	return out
}

// llmfsArgs returns the arguments llmfs gets from a simple command, if it runs llmfs.
func llmfsArgs(words []string) ([]string, bool) {
	for _, prefix := range [][]string{{"llmfs"}, {"go", "run", "./cmd/llmfs"}, {"npx", "llmfs"}, {"npx", "-y", "llmfs"}} {
		if len(words) >= len(prefix) && slices.Equal(words[:len(prefix)], prefix) {
			return words[len(prefix):], true
		}
	}
	return nil, false
}

// shellCommands splits a line of sh into its simple commands (at |, &&, || and ;), each
// a list of words with quotes removed; a # starting a word begins a comment. It knows
// only what the documentation's examples use.
func shellCommands(line string) [][]string {
	var cmds [][]string
	var words []string
	var word strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, word.String())
		}
		word.Reset()
		inWord = false
	}
	end := func() {
		flush()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				j = len(line) - i - 1
			}
			word.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			end()
			return cmds
		case c == '|' || c == ';' || c == '&' && i+1 < len(line) && line[i+1] == '&':
			if i+1 < len(line) && line[i+1] == c {
				i++
			}
			end()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	end()
	return cmds
}

// subcommands are the commands whose first argument, when not a flag, names one of the
// subcommands their usage lists.
var subcommands = map[string]bool{"ws": true, "review": true}

// Issue 33, item 4: every llmfs command line the README and the pages of docs/ show must
// be one the command line takes: a known command, known flags (with --help added, it
// prints the command's usage and exits 0), and a subcommand its usage names.
func TestDocsCommands(t *testing.T) {
	cmds := docCommands(t)
	if len(cmds) < 40 {
		t.Fatalf("found %d llmfs command lines in README.md and docs/, want the examples", len(cmds))
	}
	for _, c := range cmds {
		args := slices.Clone(c.args)
		if len(args) == 1 && args[0] == "--version" {
			args = []string{"version"}
		}
		if i := slices.Index(args, "--"); i >= 0 {
			args = slices.Insert(args, i, "--help")
		} else {
			args = append(args, "--help")
		}
		var stdout, stderr bytes.Buffer
		status := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		if status != 0 || !strings.HasPrefix(stdout.String(), "Usage: llmfs "+args[0]) {
			t.Errorf("%s: %q: llmfs %q exits %d\nstdout: %.200s\nstderr: %s", c.file, c.line, args, status, stdout.String(), stderr.String())
			continue
		}
		if subcommands[args[0]] && len(c.args) > 1 && !strings.HasPrefix(c.args[1], "-") {
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(c.args[1]) + `\b`).MatchString(stdout.String()) {
				t.Errorf("%s: %q: llmfs %s has no subcommand %q", c.file, c.line, args[0], c.args[1])
			}
		}
	}
}

// The splitter itself, on the shapes the pages use.
func TestShellCommands(t *testing.T) {
	got := shellCommands(`echo 'hello' | llmfs write "notes/to day.md" && llmfs ls notes # a comment`)
	want := [][]string{{"echo", "hello"}, {"llmfs", "write", "notes/to day.md"}, {"llmfs", "ls", "notes"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("shellCommands = %q, want %q", got, want)
	}
}

// The configuration file docs/policy.md shows is one llmfs reads: written as .llmfs.json
// at a root, a command on that root runs (an unknown key or a bad value would stop it).
func TestDocsPolicyConfig(t *testing.T) {
	b, err := os.ReadFile("../../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```json\n(.*?)```").FindStringSubmatch(string(b))
	if m == nil || !strings.Contains(m[1], `"mode"`) {
		t.Fatal("docs/policy.md shows no .llmfs.json")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, configName), []byte(m[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if status := run(context.Background(), []string{"ls", "--root", root}, strings.NewReader(""), &stdout, &stderr); status != 0 {
		t.Errorf("llmfs ls on a root with the documented .llmfs.json: exit %d\n%s", status, stderr.String())
	}
	os.WriteFile(filepath.Join(root, configName), []byte(`{"mode": "read-write", "quota": 1}`), 0o644)
	if status := run(context.Background(), []string{"ls", "--root", root}, strings.NewReader(""), &stdout, &stderr); status == 0 {
		t.Errorf("llmfs ls took a .llmfs.json with an unknown key; the test above proves nothing")
	}
}

// Every relative link of README.md and docs/*.md leads to a file of the repository: the
// reference moved from the README into docs/, and links must follow it.
func TestDocsLinks(t *testing.T) {
	pages, _ := filepath.Glob("../../docs/*.md")
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, page := range append([]string{"../../README.md"}, pages...) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), m[1])); err != nil {
				t.Errorf("%s links to %s: %v", filepath.Base(page), m[1], err)
			}
		}
	}
}
