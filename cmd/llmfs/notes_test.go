//go:build !js && !wasip1

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 13.13: `llmfs read` past the end of a file says so on standard error instead of
// printing nothing, which reads as an empty file.
func TestCLIReadPastEndSaysSo(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("1\n2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "read", "--root", dir, "--offset", "500", "f.txt")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	if want := "offset 500 is past the end; the file has 3 lines"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want it to say %q", stderr, want)
	}
	// Within the file nothing extra is said.
	if _, _, stderr := runCLI(t, "read", "--root", dir, "--offset", "3", "f.txt"); stderr != "" {
		t.Errorf("a read within the file said %q", stderr)
	}
}

// Issue 13.8: `llmfs grep` of a named binary file says it was not searched, on standard
// error, and exits 1 (no match), rather than print nothing.
func TestCLIGrepNamedBinarySaysSo(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "img.png"), []byte("\x89PNG\r\n\x1a\nfind me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "grep", "--root", dir, "find", "img.png")
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	if !strings.Contains(stderr, "binary file") || !strings.Contains(stderr, "img.png") {
		t.Errorf("stderr %q does not say the file was skipped as binary", stderr)
	}
}
