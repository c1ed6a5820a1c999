//go:build !js && !wasip1

package search_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/search"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

// changeTree makes the same pending changes, through s, in either tree: an edit, a
// creation, a deletion, a directory renamed with a file added below it afterwards, a file
// deleted inside a directory, and a .gitignore edited to ignore more.
func changeTree(t *testing.T, s store.Store) {
	t.Helper()
	ctx := context.Background()
	w := func(name, c string) {
		if _, err := s.WriteFile(ctx, name, strings.NewReader(c), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	w("a.go", "package a // needle edited\n")
	w("pkg/new.go", "package pkg // needle created\n")
	if err := s.Remove(ctx, "gone.go"); err != nil {
		t.Fatal(err)
	}
	if err := s.Rename(ctx, "old", "renamed"); err != nil {
		t.Fatal(err)
	}
	w("renamed/sub/later.go", "needle later\n")
	if err := s.Remove(ctx, "pkg/del.go"); err != nil {
		t.Fatal(err)
	}
	w(".gitignore", "*.log\nskip/\n")
}

func makeTree(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"a.go": "package a // needle\n", "gone.go": "needle gone\n", "b.txt": "no match\n",
		"old/x.go": "needle x\n", "old/sub/y.go": "needle y\n", "pkg/del.go": "needle del\n",
		"pkg/keep.go": "needle keep\n", ".gitignore": "*.log\n", "skip/s.go": "needle skip\n",
		"deep/er/z.go": "needle z\n", "l.log": "needle log\n",
	}
	for name, c := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSearchOverlayParity: grep and find over an overlay give, byte for byte, what they give
// over a copy of the tree with the changes applied (find's order aside, which follows
// modification times).
func TestSearchOverlayParity(t *testing.T) {
	ctx := context.Background()
	baseDir, copyDir := makeTree(t), makeTree(t)
	base, err := osdir.New(baseDir, false)
	if err != nil {
		t.Fatal(err)
	}
	ov, err := overlay.New(ctx, base, mem.New())
	if err != nil {
		t.Fatal(err)
	}
	changeTree(t, ov)
	applied, err := osdir.New(copyDir, false)
	if err != nil {
		t.Fatal(err)
	}
	changeTree(t, applied)

	for _, mode := range []search.OutputMode{search.FilesWithMatches, search.Content, search.Count} {
		opts := search.GrepOptions{Pattern: "needle", Mode: mode, LineNumbers: true}
		want, err := search.Grep(ctx, applied, ".", opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := search.Grep(ctx, ov, ".", opts)
		if err != nil {
			t.Fatal(err)
		}
		if got.Text() != want.Text() {
			t.Errorf("grep %s over the overlay:\n%s\nover the applied copy:\n%s", mode, got.Text(), want.Text())
		}
	}
	for _, pat := range []string{"*.go", "**", "renamed/**"} {
		want, err := search.Find(ctx, applied, ".", search.FindOptions{Pattern: pat})
		if err != nil {
			t.Fatal(err)
		}
		got, err := search.Find(ctx, ov, ".", search.FindOptions{Pattern: pat})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := sortedLines(got.Text()), sortedLines(want.Text()); g != w {
			t.Errorf("find %s over the overlay:\n%s\nover the applied copy:\n%s", pat, g, w)
		}
	}
}

func sortedLines(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}
