//go:build linux

package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// A git commit under llmfs run is one change set with no temporaries in it: git makes its
// objects as temporary files and links them into place, and a hard link made beneath the
// session layer at once split the run into a change set per link and journaled the
// temporaries (found by running the README's example).
func TestRunGitOneChangeSet(t *testing.T) {
	requireFUSE(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "one\n", ".env": "SECRET=1\n"})
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt"}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	writeFiles(t, dir, map[string]string{"a.txt": "one\ntwo\n"})
	_, stderr, code := llmfsIn(t, dir, "run", "--no-default-deny", "--deny", "**/.env", "--",
		"git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qam", "fix")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	m := regexp.MustCompile(`change set (\S+) by run:git`).FindStringSubmatch(stderr)
	if m == nil || strings.Contains(m[1], ",") {
		t.Fatalf("want one change set by run:git:\n%s", stderr)
	}
	if strings.Contains(stderr, "tmp_obj") {
		t.Errorf("git's temporary objects are journaled:\n%s", stderr)
	}
	if out, err := exec.Command("git", "-C", dir, "log", "--oneline").CombinedOutput(); err != nil || !strings.Contains(string(out), "fix") {
		t.Errorf("git log after the run: %v\n%s", err, out)
	}
}
