//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// llmfsRun runs the CLI in-process and returns its exit status, stdout and stderr.
func llmfsRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// wantErrCode checks a failed run printed the coded error {"code": code, ...} (llmfs call),
// or one line "llmfs CMD: message" saying what the code means (the other commands), and
// returns the message.
func wantErrCode(t *testing.T, status int, stderr, code string) string {
	t.Helper()
	var e struct{ Code, Message string }
	if json.Unmarshal([]byte(stderr), &e) == nil {
		if status != 1 || e.Code != code {
			t.Fatalf("status %d, stderr %q; want 1 and code %s", status, stderr, code)
		}
		return e.Message
	}
	says := map[string]string{
		"PERMISSION_DENIED": `read-only|denied|not allowed`,
		"QUOTA_EXCEEDED":    `quota`,
		"INVALID_ARGUMENT":  `.`,
	}[code]
	m := regexp.MustCompile(`^llmfs [a-z-]+: (.*)\n$`).FindStringSubmatch(stderr)
	if status != 1 || m == nil || strings.Count(stderr, "\n") != 1 || !regexp.MustCompile(says).MatchString(m[1]) {
		t.Fatalf("status %d, stderr %q; want 1 and one line saying %s", status, stderr, code)
	}
	return m[1]
}

func mkfile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// TestWorkspaceFlagsEverywhere checks that every command that opens a workspace takes the
// policy flags (they are registered in one place, wsFlags.register).
func TestWorkspaceFlagsEverywhere(t *testing.T) {
	for _, c := range commands {
		if c.name == "tools" || c.name == "ws" || c.name == "version" {
			continue // prints definitions, manages workspaces, or the version: opens none to serve
		}
		status, out, _ := llmfsRun(t, c.name, "--help")
		if status != 0 {
			t.Fatalf("%s --help: status %d", c.name, status)
		}
		for _, f := range []string{"-mode", "-deny", "-quota-bytes", "-max-file-bytes", "-max-files", "-config", "-agent-md", "-no-default-deny", "-store", "-workspace"} {
			if !strings.Contains(out, "  -"+f) { // printed as --name
				t.Errorf("llmfs %s has no %s flag:\n%s", c.name, f, out)
			}
		}
	}
}

func TestModeFlag(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "a.txt"), "alpha\n")
	status, _, stderr := llmfsRun(t, "write", "--root", dir, "--mode", "read-only", "b.txt", "b")
	msg := wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	if !strings.Contains(msg, "read-only") {
		t.Errorf("message %q does not say read-only", msg)
	}
	if exists(filepath.Join(dir, "b.txt")) {
		t.Error("a read-only write created the file")
	}
	status, _, stderr = llmfsRun(t, "rm", "--root", dir, "--mode", "read-write", "a.txt")
	wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	status, _, stderr = llmfsRun(t, "call", "--root", dir, "--mode", "read-only", "--dialect", "rtc", "write", `{"path": "/b.txt", "content": "b"}`)
	msg = wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	if !strings.Contains(msg, "Use ls, read") {
		t.Errorf("message %q does not name the tools left", msg)
	}
	if status, _, _ := llmfsRun(t, "ls", "--root", dir, "--mode", "admin"); status != 2 {
		t.Errorf("--mode admin: status %d, want 2", status)
	}
}

func TestDenyFlag(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "secret/plan.md"), "plan\n")
	mkfile(t, filepath.Join(dir, ".env"), "A=1\n")
	mkfile(t, filepath.Join(dir, "ok.md"), "ok\n")
	status, _, stderr := llmfsRun(t, "read", "--root", dir, "--deny", "secret/**", "--deny", "*.tmp", "secret/plan.md")
	wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	status, out, _ := llmfsRun(t, "ls", "--root", dir, "--deny", "secret/**")
	if status != 0 || strings.Contains(out, "secret") || strings.Contains(out, ".env") || !strings.Contains(out, "ok.md") {
		t.Errorf("ls with --deny: status %d\n%s", status, out)
	}
	status, out, _ = llmfsRun(t, "read", "--root", dir, "--no-default-deny", ".env")
	if status != 0 || out != "A=1\n" {
		t.Errorf("read .env with --no-default-deny: status %d, %q", status, out)
	}
	if status, _, _ := llmfsRun(t, "ls", "--root", dir, "--deny", "[x"); status != 2 {
		t.Errorf("--deny [x: status %d, want 2", status)
	}
}

func TestQuotaFlags(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "a.txt"), strings.Repeat("a", 1000))
	status, _, stderr := llmfsRun(t, "write", "--root", dir, "--quota-bytes", "1K", "b.txt", strings.Repeat("b", 25))
	wantErrCode(t, status, stderr, "QUOTA_EXCEEDED")
	if exists(filepath.Join(dir, "b.txt")) {
		t.Error("a write over the quota created the file")
	}
	if status, _, stderr := llmfsRun(t, "write", "--root", dir, "--quota-bytes", "1K", "b.txt", strings.Repeat("b", 24)); status != 0 {
		t.Errorf("write within the quota: %s", stderr)
	}
	status, _, stderr = llmfsRun(t, "write", "--root", dir, "--max-file-bytes", "10", "c.txt", strings.Repeat("c", 11))
	wantErrCode(t, status, stderr, "QUOTA_EXCEEDED")
	status, _, stderr = llmfsRun(t, "mkdir", "--root", dir, "--max-files", "3", "x/y")
	wantErrCode(t, status, stderr, "QUOTA_EXCEEDED")
	if status, _, _ := llmfsRun(t, "ls", "--root", dir, "--quota-bytes", "lots"); status != 2 {
		t.Errorf("--quota-bytes lots: status %d, want 2", status)
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "a.txt"), "alpha\n")
	mkfile(t, filepath.Join(dir, "private/p.md"), "p\n")
	mkfile(t, filepath.Join(dir, ".llmfs.json"), `{"mode": "read-only", "deny": ["private/**"], "max_file_bytes": 5}`)

	status, _, stderr := llmfsRun(t, "write", "--root", dir, "b.txt", "b")
	wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	status, _, stderr = llmfsRun(t, "read", "--root", dir, "private/p.md")
	wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	// Flags override the file.
	if status, _, stderr := llmfsRun(t, "write", "--root", dir, "--mode", "read-write", "b.txt", "b"); status != 0 {
		t.Errorf("write with --mode read-write over a read-only config: %s", stderr)
	}
	status, _, stderr = llmfsRun(t, "write", "--root", dir, "--mode", "read-write", "c.txt", "123456")
	wantErrCode(t, status, stderr, "QUOTA_EXCEEDED")
	if status, _, stderr := llmfsRun(t, "write", "--root", dir, "--mode", "read-write", "--max-file-bytes", "0", "c.txt", "123456"); status != 0 {
		t.Errorf("--max-file-bytes 0 over the config's bound: %s", stderr)
	}
	// The agent can neither read nor rewrite its own rules.
	status, _, stderr = llmfsRun(t, "read", "--root", dir, ".llmfs.json")
	wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	status, _, stderr = llmfsRun(t, "call", "--root", dir, "--mode", "full", "file_write", `{"path": ".llmfs.json", "content": "{}"}`)
	wantErrCode(t, status, stderr, "PERMISSION_DENIED")
	status, out, _ := llmfsRun(t, "ls", "--root", dir)
	if status != 0 || strings.Contains(out, ".llmfs.json") {
		t.Errorf("ls shows the configuration file:\n%s", out)
	}

	// --config names a file elsewhere; one inside the root is hidden too.
	other := filepath.Join(t.TempDir(), "conf.json")
	mkfile(t, other, `{"mode": "full"}`)
	if status, _, stderr := llmfsRun(t, "rm", "--root", dir, "--config", other, "b.txt"); status != 0 {
		t.Errorf("rm with --config granting full: %s", stderr)
	}
	mkfile(t, filepath.Join(dir, "conf/rules.json"), `{"mode": "read-write"}`)
	status, _, stderr = llmfsRun(t, "read", "--root", dir, "--config", filepath.Join(dir, "conf/rules.json"), "conf/rules.json")
	wantErrCode(t, status, stderr, "PERMISSION_DENIED")

	mkfile(t, other, `{"mode": "full", "colour": "blue"}`)
	status, _, stderr = llmfsRun(t, "ls", "--root", dir, "--config", other)
	if status != 1 || !strings.Contains(stderr, "colour") {
		t.Errorf("config with an unknown field: status %d, %q", status, stderr)
	}
}

func TestAgentMDFromCLI(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "README.md"), "# demo\n")
	agent := filepath.Join(dir, "AGENT.md")

	// agentool on a host directory: only when asked.
	llmfsRun(t, "call", "--root", dir, "file_read", `{"path": "README.md"}`)
	llmfsRun(t, "ls", "--root", dir)
	if exists(agent) {
		t.Fatal("AGENT.md created on a host directory without --agent-md")
	}
	// rtc, read-only: not written into a directory the agent may not change.
	llmfsRun(t, "call", "--root", dir, "--dialect", "rtc", "--mode", "read-only", "ls", `{}`)
	if exists(agent) {
		t.Fatal("AGENT.md created by a read-only rtc call")
	}
	// rtc: not by default either (Issue 13.12: a one-shot rtc read of a repository left an
	// AGENT.md in it); only on request.
	if status, _, stderr := llmfsRun(t, "call", "--root", dir, "--dialect", "rtc", "read", `{"path": "/README.md"}`); status != 0 {
		t.Fatal(stderr)
	}
	if exists(agent) {
		t.Fatal("AGENT.md created by a one-shot rtc read of a host directory")
	}
	if status, _, stderr := llmfsRun(t, "call", "--root", dir, "--dialect", "rtc", "--agent-md", "ls", `{}`); status != 0 {
		t.Fatal(stderr)
	}
	b, err := os.ReadFile(agent)
	if err != nil || !strings.Contains(string(b), "- `edit`:") || !strings.Contains(string(b), "`/README.md`") {
		t.Fatalf("AGENT.md after an rtc call: %v\n%s", err, b)
	}

	// With the history tools on, AGENT.md lists them among the tools.
	if status, _, stderr := llmfsRun(t, "call", "--root", dir, "--dialect", "rtc", "--agent-md", "--history-tools", "ls", `{}`); status != 0 {
		t.Fatal(stderr)
	}
	if b, _ := os.ReadFile(agent); !strings.Contains(string(b), "- `history`:") || !strings.Contains(string(b), "- `undo`:") {
		t.Errorf("AGENT.md with --history-tools does not list history and undo:\n%s", b)
	}
	if status, _, stderr := llmfsRun(t, "call", "--root", dir, "--dialect", "rtc", "--agent-md", "ls", `{}`); status != 0 {
		t.Fatal(stderr)
	}
	if b, _ := os.ReadFile(agent); strings.Contains(string(b), "`undo`") {
		t.Errorf("AGENT.md without --history-tools lists undo:\n%s", b)
	}

	// Edited by the user: kept, even when asked for.
	mkfile(t, agent, "mine\n")
	llmfsRun(t, "ls", "--root", dir, "--agent-md")
	llmfsRun(t, "call", "--root", dir, "--dialect", "rtc", "ls", `{}`)
	if b, _ := os.ReadFile(agent); string(b) != "mine\n" {
		t.Fatalf("edited AGENT.md changed: %q", b)
	}
	status, out, stderr := llmfsRun(t, "restore-default", "--root", dir, "--dialect", "rtc", "/AGENT.md")
	if status != 0 || strings.TrimSpace(out) != filepath.ToSlash(agent) {
		t.Fatalf("restore-default: status %d, %q, %q", status, out, stderr)
	}
	if b, _ := os.ReadFile(agent); !strings.Contains(string(b), "- `read`:") {
		t.Errorf("restored AGENT.md:\n%s", b)
	}
	status, _, stderr = llmfsRun(t, "restore-default", "--root", dir, "README.md")
	wantErrCode(t, status, stderr, "INVALID_ARGUMENT")

	// Config file switch, and an agentool workspace with --agent-md.
	dir2 := t.TempDir()
	mkfile(t, filepath.Join(dir2, ".llmfs.json"), `{"agent_md": true}`)
	llmfsRun(t, "ls", "--root", dir2)
	if b, err := os.ReadFile(filepath.Join(dir2, "AGENT.md")); err != nil || !strings.Contains(string(b), "`file_read`") {
		t.Errorf("AGENT.md with agent_md in the config: %v\n%s", err, b)
	}
	if status, _, _ := llmfsRun(t, "ls", "--root", dir2, "--agent-md=false"); status != 0 {
		t.Error("--agent-md=false refused")
	}
}
