//go:build !js && !wasip1

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRedactDSN(t *testing.T) {
	for dsn, want := range map[string]string{
		"sqlite:/var/lib/llmfs.db":                "sqlite:/var/lib/llmfs.db",
		"postgres://llmfs:s3cret@db:5432/x":       "postgres://llmfs:xxxxx@db:5432/x",
		"postgresql://llmfs@db/x?sslmode=disable": "postgresql://llmfs@db/x?sslmode=disable",
	} {
		if got := redactDSN(dsn); got != want {
			t.Errorf("redactDSN(%q) = %q, want %q", dsn, got, want)
		}
	}
	// The password never shows in a message.
	_, _, errOut := runCLI(t, "ls", "--store", "postgres://u:s3cret@127.0.0.1:1/x?connect_timeout=1", "--workspace", "w")
	if strings.Contains(errOut, "s3cret") {
		t.Errorf("the password shows in %q", errOut)
	}
}

// TestStoreCLI runs the workspace commands and a file command on each database: SQLite
// always, PostgreSQL when LLMFS_TEST_POSTGRES holds a DSN.
func TestStoreCLI(t *testing.T) {
	dsns := map[string]string{"SQLite": "sqlite:" + filepath.Join(t.TempDir(), "llmfs.db")}
	if dsn := os.Getenv("LLMFS_TEST_POSTGRES"); dsn != "" {
		dsns["PostgreSQL"] = dsn
	} else {
		t.Log("LLMFS_TEST_POSTGRES is not set: PostgreSQL skipped (.ci/postgres.sh starts one and prints its DSN)")
	}
	for name, dsn := range dsns {
		t.Run(name, func(t *testing.T) {
			id := fmt.Sprintf("cli-%d", time.Now().UnixNano())
			must := func(want int, args ...string) (string, string) {
				t.Helper()
				code, out, errOut := runCLI(t, args...)
				if code != want {
					t.Fatalf("llmfs %s = %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, errOut)
				}
				return out, errOut
			}
			ws := []string{"--store", dsn, "--workspace", id, "--agent-md=false"}
			_, errOut := must(1, append([]string{"read", "a.txt"}, ws...)...)
			if !strings.Contains(errOut, "llmfs ws create") {
				t.Errorf("opening a missing workspace: %s", errOut)
			}
			must(0, "ws", "create", "--store", dsn, id, "--max-files", "3")
			t.Cleanup(func() { runCLI(t, "ws", "rm", "--store", dsn, id) })
			must(0, append([]string{"write", "a/b.txt", "hello\n"}, ws...)...)
			out, _ := must(0, append([]string{"read", "/a/b.txt"}, ws...)...)
			if out != "hello\n" {
				t.Errorf("read = %q", out)
			}
			// 2 entries of 3: one more directory and file pass the quota.
			_, errOut = must(1, append([]string{"write", "c/d.txt", "x"}, ws...)...)
			if !strings.Contains(errOut, "llmfs write: c/d.txt: storage quota exceeded") {
				t.Errorf("write past the quota: %s", errOut)
			}
			must(0, append([]string{"write", "c.txt", "x"}, ws...)...)
			// Raising the quota with a flag keeps it raised for the next process.
			must(0, append([]string{"ls", "--max-files", "10"}, ws...)...)
			must(0, append([]string{"write", "c/d.txt", "x"}, ws...)...)
			out, _ = must(0, "ws", "list", "--store", dsn)
			if !regexp.MustCompile(`(?m)^` + id + ` +5 +8 +10 +- +- `).MatchString(out) {
				t.Errorf("ws list:\n%s", out)
			}
			dir := t.TempDir()
			must(0, "ws", "export", "--store", dsn, id, dir)
			if b, err := os.ReadFile(filepath.Join(dir, "a", "b.txt")); err != nil || string(b) != "hello\n" {
				t.Errorf("exported a/b.txt = %q, %v", b, err)
			}
			must(0, "ws", "rm", "--store", dsn, id)
			must(1, append([]string{"ls"}, ws...)...)
		})
	}
}
