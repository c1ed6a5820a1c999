//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
)

func TestFind(t *testing.T) {
	w, dir := hostWorkspace(t, grepTree, &llmfs.Options{Mode: llmfs.ReadOnly})
	ctx := context.Background()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "a.go"), old, old); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pattern string
		opts    llmfs.FindOptions
		want    string
	}{
		{"*.go", llmfs.FindOptions{}, "sub/b.go\na.go\n"}, // newest first
		{"*.go", llmfs.FindOptions{Path: "sub"}, "sub/b.go\n"},
		{"sub/*.{go,txt}", llmfs.FindOptions{}, "sub/b.go\nsub/c.txt\n"},
		{"*.go", llmfs.FindOptions{Path: "sub", NoIgnore: true}, "sub/b.go\nsub/ignored.go\n"},
		{".ignore", llmfs.FindOptions{Hidden: true}, "sub/.ignore\n"},
		{"*.go", llmfs.FindOptions{Limit: 1}, "sub/b.go\n"},
	} {
		res, err := w.Find(ctx, tc.pattern, tc.opts)
		if err != nil {
			t.Errorf("Find(%q, %+v): %v", tc.pattern, tc.opts, err)
			continue
		}
		got := res.Text()
		if tc.pattern == "sub/*.{go,txt}" || tc.opts.NoIgnore {
			got = sortLines(got) // same mtime, order by path
		}
		if got != tc.want {
			t.Errorf("Find(%q, %+v) = %q, want %q", tc.pattern, tc.opts, got, tc.want)
		}
		if truncated := tc.opts.Limit == 1; res.Truncated != truncated {
			t.Errorf("Find(%q, %+v): Truncated = %v, want %v", tc.pattern, tc.opts, res.Truncated, truncated)
		}
	}
	for _, tc := range []struct {
		pattern, path string
		code          llmfs.Code
	}{
		{"[a", "", llmfs.CodeInvalidArgument},
		{"*.go", "a.go", llmfs.CodeInvalidPath},
		{"*.go", "nope", llmfs.CodeFileNotFound},
		{"*.go", "..", llmfs.CodeInvalidPath},
		// ".." in a pattern would reach files beside the directory searched.
		{"../*.go", "sub", llmfs.CodeInvalidArgument},
		{"x/../../*", "sub", llmfs.CodeInvalidArgument},
	} {
		_, err := w.Find(ctx, tc.pattern, llmfs.FindOptions{Path: tc.path})
		if llmfs.CodeOf(err) != tc.code {
			t.Errorf("Find(%q, %q) = %v, want %s", tc.pattern, tc.path, err, tc.code)
		}
	}
}

func sortLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j] < lines[j-1]; j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
