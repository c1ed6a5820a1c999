//go:build !js && !wasip1

package osdir_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDatabaseDriver: the host store links no database driver; its journal's database
// comes from store/sql/hostjournal, which a program imports (package host does).
func TestNoDatabaseDriver(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gocmd, "list", "-deps", "github.com/llmfs/llmfs/store/osdir").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range []string{"modernc.org/", "pgx", "database/sql", "github.com/llmfs/llmfs/store/sql"} {
			if strings.Contains(dep, b) {
				t.Errorf("store/osdir depends on %s", dep)
			}
		}
	}
}
