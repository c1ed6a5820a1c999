//go:build !js && !wasip1

package search

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store/osdir"
)

// BenchmarkGrepGoroot searches Go's own source tree; bench/search.sh compares the same
// cases with ripgrep and GNU grep.
func BenchmarkGrepGoroot(b *testing.B) {
	goroot, _ := exec.Command("go", "env", "GOROOT").Output()
	dir := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no Go source tree:", err)
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, bc := range []struct {
		name string
		o    GrepOptions
	}{
		{"literal", GrepOptions{Pattern: "func main", Mode: Content, LineNumbers: true}},
		{"regex-no-literal", GrepOptions{Pattern: "[A-Z][a-z]*[0-9]{3}", Mode: Count}},
		{"case-insensitive", GrepOptions{Pattern: "errorf", IgnoreCase: true, Mode: Count}},
		{"files-head-limit", GrepOptions{Pattern: "TODO", HeadLimit: 250}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Grep(context.Background(), s, ".", bc.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("find", func(b *testing.B) {
		for b.Loop() {
			if _, err := Find(context.Background(), s, ".", FindOptions{Pattern: "*_test.go"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
