//go:build !js && !wasip1

package llmfs

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// Issue 33, item 4: `go doc` of the package opens with the code of [Example], which go
// test runs. Every line of the package comment's code block must be a line of Example, so
// the two cannot drift apart.
func TestPackageDocShowsExample(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "llmfs.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(example), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	var code []string
	for _, l := range strings.Split(f.Doc.Text(), "\n") {
		if strings.HasPrefix(l, "\t") {
			code = append(code, strings.TrimSpace(l))
		}
	}
	if len(code) < 10 {
		t.Fatalf("the package comment shows %d lines of code, want the example", len(code))
	}
	for _, want := range []string{"host.Open(", "ws.Read(", "ws.Edit(", "ws.History().Undo("} {
		if !strings.Contains(strings.Join(code, "\n"), want) {
			t.Errorf("the package comment's example does not call %s", want)
		}
	}
	for _, l := range code {
		if !lines[l] {
			t.Errorf("the package comment's line %q is not in Example (example_test.go)", l)
		}
	}
}
