//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestRunUndoLinks: the links and modes a command makes under llmfs run are in the run's
// one change set, so 'llmfs undo --set' of the run takes the links back with the files.
func TestRunUndoLinks(t *testing.T) {
	requireFUSE(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	_, stderr, code := llmfsIn(t, dir, "run", "--", "sh", "-c", `mkdir bin && printf '#!/bin/sh\necho ran\n' > bin/tool && chmod +x bin/tool && ln -s bin/tool tool && ln -s a.txt l && ./tool`)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "tool")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("tool after the run: %v, %v", fi, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "bin/tool")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("bin/tool after the run: %v, %v; want the execute bit", fi, err)
	}
	m := regexp.MustCompile(`undo it with: llmfs undo --set (\d+) `).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no undo command:\n%s", stderr)
	}
	if _, stderr, code := llmfsIn(t, dir, "undo", "--set", m[1]); code != 0 {
		t.Fatalf("undo: %s", stderr)
	}
	for _, name := range []string{"tool", "l", "bin/tool", "bin"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s is still there after undo --set of the run", name)
		}
	}
	fileIs(t, filepath.Join(dir, "a.txt"), "a\n")
}
