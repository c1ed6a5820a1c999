//go:build !js && !wasip1

package main

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// TestWsListUsageMatchesFiles: after one-shot commands that regenerate AGENT.md, the
// bytes and entries `ws list` shows are what the workspace's files hold (issue 31, item
// 14). The files are measured with the store alone: a command that opens the workspace
// would regenerate AGENT.md before measuring.
func TestWsListUsageMatchesFiles(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "u.db")
	must := func(args ...string) string {
		t.Helper()
		status, out, stderr := llmfsRun(t, args...)
		if status != 0 {
			t.Fatalf("llmfs %v: %d %s", args, status, stderr)
		}
		return out
	}
	must("ws", "create", "--store", dsn, "w1")
	for _, f := range []string{"a.txt", "b/c.txt", "d/e/f.txt"} {
		must("write", "--store", dsn, "--workspace", "w1", f, "hello "+f)
		must("ls", "--store", dsn, "--workspace", "w1", "/")
		var files, bytes int64
		for _, line := range strings.Split(must("ws", "list", "--store", dsn), "\n") {
			if fs := strings.Fields(line); len(fs) > 2 && fs[0] == "w1" {
				files, _ = strconv.ParseInt(fs[1], 10, 64)
				bytes, _ = strconv.ParseInt(fs[2], 10, 64)
			}
		}
		ctx := context.Background()
		s, err := sqlstore.OpenDSN(ctx, dsn, "w1", nil)
		if err != nil {
			t.Fatal(err)
		}
		var held, entries int64
		var walk func(dir string)
		walk = func(dir string) {
			es, err := s.ReadDir(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				entries++
				name := filepath.ToSlash(filepath.Join(dir, e.Name()))
				if e.IsDir() {
					walk(name)
					continue
				}
				fi, err := s.Stat(ctx, name)
				if err != nil {
					t.Fatal(err)
				}
				held += fi.Size()
			}
		}
		walk(".")
		s.Close()
		if bytes != held || files != entries {
			t.Errorf("after %s: ws list says %d bytes in %d entries, the files hold %d in %d", f, bytes, files, held, entries)
		}
	}
}
