//go:build !js && !wasip1

package sqlstore_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDriverInPackage: store/sql registers no database driver; a program picks its
// drivers by importing store/sql/sqlite or store/sql/postgres, so a SQLite-only program
// does not link PostgreSQL's.
func TestNoDriverInPackage(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	for pkg, banned := range map[string][]string{
		"github.com/llmfs/llmfs/store/sql":          {"modernc.org/sqlite", "pgx"},
		"github.com/llmfs/llmfs/store/sql/sqlite":   {"pgx"},
		"github.com/llmfs/llmfs/store/sql/postgres": {"modernc.org/"},
	} {
		out, err := exec.Command(gocmd, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range banned {
				if strings.Contains(dep, b) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
