//go:build !js && !wasip1

package release_test

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The README promises that CI runs its test command; .ci/run must run it with the same
// flags (adding only -json and -count=1), so a README that sets -timeout is what CI runs.
func TestCIRunsTheREADMETestCommand(t *testing.T) {
	var readme []string
	for _, line := range shLines(readPage(t, "../README.md"), "go test") {
		if !strings.Contains(line, "-short") {
			readme = append(readme, line)
		}
	}
	if len(readme) != 1 {
		t.Fatalf("README.md gives %d test commands (%q), want one", len(readme), readme)
	}
	ci, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(readme[0])
	var found []string
	for _, line := range strings.Split(string(ci), "\n") {
		cmd, _, _ := strings.Cut(line, "|")
		words := strings.Fields(cmd)
		if len(words) < 3 || words[0] != "go" || words[1] != "test" || !slices.Contains(words, "./...") {
			continue
		}
		found = append(found, line)
		words = slices.DeleteFunc(words, func(w string) bool { return w == "-json" || w == "-count=1" || strings.HasPrefix(w, "2>") })
		if slices.Equal(words, want) {
			return
		}
	}
	t.Errorf(".ci/run runs %q, not the README's %q (plus -json -count=1)", found, readme[0])
}
