//go:build !js && !wasip1

package search

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A find whose pattern matches names ("*.go", "**/*.go") turns a file away by its name
// before anything else is done for it: the skip rule (the workspace's deny rules, a
// twentieth of a find's CPU on the Linux tree) is asked only about the directories and
// the files that match, and the matches are those of a pattern matched on paths.
func TestFindByNameAsksLittle(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.go": "", "b.txt": "", "sub/c.go": "", "sub/d.txt": "", "sub/deep/e.go": "", "sub/deep/f.md": "",
	})
	s := hostStore(t, dir)
	for _, pat := range []string{"*.go", "**/*.go"} {
		var mu sync.Mutex
		var asked []string
		res, err := Find(context.Background(), s, ".", FindOptions{Pattern: pat, Skip: func(name string) bool {
			mu.Lock()
			asked = append(asked, name)
			mu.Unlock()
			return false
		}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range res.Files {
			got = append(got, f.Path)
		}
		slices.Sort(got)
		if want := []string{"a.go", "sub/c.go", "sub/deep/e.go"}; !slices.Equal(got, want) {
			t.Errorf("%s: found %q, want %q", pat, got, want)
		}
		for _, name := range asked {
			if strings.Contains(name, ".") && !strings.HasSuffix(name, ".go") {
				t.Errorf("%s: skip asked about %s, which the pattern turns away", pat, name)
			}
		}
	}
}
