//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs llmfs in-process and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestReadStreams(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("1\n2\n3\n4\n5"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin"), []byte("a\x00b"), 0o644); err != nil {
		t.Fatal(err)
	}
	type test struct {
		args     []string
		code     int
		out, err string
	}
	for _, tc := range []test{
		{[]string{"read", "--root", dir, "f.txt"}, 0, "1\n2\n3\n4\n5", ""},
		{[]string{"read", "--root", dir, "f.txt", "--offset", "2", "--limit", "2"}, 0, "2\n3\n", ""},
		{[]string{"read", "--root", dir, "f.txt", "--offset", "5"}, 0, "5", ""},
		{[]string{"read", "--root", dir, "f.txt", "--offset", "9"}, 0, "", "llmfs read: f.txt: offset 9 is past the end; the file has 5 lines\n"},
		{[]string{"read", "--root", dir, "bin"}, 1, "", "llmfs read: bin: binary file (it contains NUL bytes); it cannot be read as text\n"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != tc.code || out != tc.out || errOut != tc.err {
			t.Errorf("llmfs %s = %d, %q, %q; want %d, %q, %q", strings.Join(tc.args, " "), code, out, errOut, tc.code, tc.out, tc.err)
		}
	}
}

func TestCallRTC(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := `{"path":"/a.txt","old_string":"hello","new_string":"bye"}`
	// A one-shot call is its own session: with rtc's default read-before-edit it refuses.
	code, _, errOut := runCLI(t, "call", "--root", dir, "--dialect", "rtc", "edit", edit)
	if code != 1 || !strings.Contains(errOut, `"code":"FILE_NOT_READ"`) {
		t.Errorf("call edit = %d, %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "call", "--root", dir, "--dialect", "rtc", "--require-read=false", "edit", edit)
	if code != 0 || !strings.Contains(out, `"replacements":1`) {
		t.Errorf("call --require-read=false edit = %d, %s, %s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "call", "--root", dir, "--dialect", "rtc", "read", `{"path":"/a.txt"}`)
	if want := `{"content":"     1\tbye\n","path":"/a.txt","total_lines":1}` + "\n"; code != 0 || out != want {
		t.Errorf("call read = %d, %q, want %q", code, out, want)
	}
	code, out, _ = runCLI(t, "tools", "--dialect", "rtc")
	var defs []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &defs); code != 0 || err != nil || len(defs) != 7 {
		t.Fatalf("tools --dialect rtc = %d, %v, %s", code, err, out)
	}
	for i, want := range []string{"ls", "read", "write", "edit", "find", "grep", "patch"} {
		if defs[i].Name != want {
			t.Errorf("tool %d = %s, want %s", i, defs[i].Name, want)
		}
	}
}

// A configuration's require_read is for agents' sessions; a person's one-shot edit or
// overwrite is a session of its own that cannot read first, so it must not be refused.
func TestOneShotsIgnoreRequireRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".llmfs.json"), []byte(`{"require_read": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "edit", "--root", dir, "a.txt", "hello", "goodbye"); code != 0 {
		t.Errorf("edit with require_read in the configuration: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "write", "--root", dir, "a.txt", "new\n"); code != 0 {
		t.Errorf("write with require_read in the configuration: exit %d, %s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "new\n" {
		t.Errorf("a.txt = %q, want %q", b, "new\n")
	}
}
