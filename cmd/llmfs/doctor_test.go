//go:build !js && !wasip1

package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runDoctor(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb strings.Builder
	code := run(context.Background(), append([]string{"doctor"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String() + errb.String()
}

// TestDoctorHealthySetup checks that doctor passes a good setup and leaves the root as it
// found it (issue 20, item 5).
func TestDoctorHealthySetup(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	root := t.TempDir()
	code, out := runDoctor(t, "--root", root, "--addr", "127.0.0.1:0")
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	for _, want := range []string{"ok    root", "ok    workspace", "ok    cache", "ok    port"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("doctor left %d entries in the root (e.g. %s)", len(entries), entries[0].Name())
	}
}

// TestDoctorSaysWhatToFix checks that each broken part of a setup fails with a fix: a
// missing root, a cache directory that is a file, a port in use.
func TestDoctorSaysWhatToFix(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LLMFS_CACHE_DIR", notDir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	missing := filepath.Join(t.TempDir(), "missing")
	code, out := runDoctor(t, "--root", missing, "--addr", ln.Addr().String())
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"FAIL  root       " + missing + " does not exist\n      fix: create it",
		"FAIL  cache", "set LLMFS_CACHE_DIR to a directory you own",
		"FAIL  port", "pass llmfs serve --addr",
		"3 of the checks failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "workspace") {
		t.Errorf("a missing root is reported twice:\n%s", out)
	}

	// A root that is a file.
	code, out = runDoctor(t, "--root", notDir, "--addr", "127.0.0.1:0")
	if code != 1 || !strings.Contains(out, "is not a directory") {
		t.Errorf("root is a file: exit %d\n%s", code, out)
	}
}

// TestNoArgumentsPrintsShortHelp checks that llmfs alone prints the commands and where to
// start, and exits 0.
func TestNoArgumentsPrintsShortHelp(t *testing.T) {
	var out, errb strings.Builder
	if code := run(context.Background(), nil, strings.NewReader(""), &out, &errb); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	for _, want := range []string{"Usage:", "llmfs mcp --root DIR", "llmfs doctor", "doctor "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "\n"); n > 45 { // one line per command (mount and run made it 41)
		t.Errorf("help is %d lines, want a short one", n)
	}
}

// TestDoctorQuotesControlCharacters: a root whose name holds an escape sequence or a newline
// is printed quoted, so it can neither drive the terminal nor forge a check's line (issue 31,
// item 13).
func TestDoctorQuotesControlCharacters(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	base := t.TempDir()
	good := filepath.Join(base, "a\x1b[2K\nok    forged")
	if err := os.Mkdir(good, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{good, filepath.Join(base, "missing\x1b]0;title\a\r")} {
		_, out := runDoctor(t, "--root", root, "--addr", "127.0.0.1:0")
		if strings.ContainsAny(out, "\x1b\r\a") || strings.Contains(out, "\nok    forged") {
			t.Errorf("root %q printed raw:\n%s", root, out)
		}
		if !strings.Contains(out, `\x1b`) {
			t.Errorf("root %q: the escape is not shown quoted:\n%s", root, out)
		}
	}
}

// TestDoctorWarnsCacheInsideRoot: doctor says when llmfs's cache lies inside the root,
// and how to move it (issue 31, item 1).
func TestDoctorWarnsCacheInsideRoot(t *testing.T) {
	root := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", filepath.Join(root, ".cache", "llmfs"))
	code, out := runDoctor(t, "--root", root, "--addr", "127.0.0.1:0")
	if code != 0 {
		t.Errorf("exit %d, want 0 (a warning is no failure):\n%s", code, out)
	}
	if !strings.Contains(out, "WARN  cache") || !strings.Contains(out, "set LLMFS_CACHE_DIR to a directory outside the root") {
		t.Errorf("no warning about the cache inside the root:\n%s", out)
	}
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	if _, out := runDoctor(t, "--root", root, "--addr", "127.0.0.1:0"); strings.Contains(out, "WARN") {
		t.Errorf("a warning with the cache elsewhere:\n%s", out)
	}
}
