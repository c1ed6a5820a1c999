//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goCommand returns the go command that runs the tests, or skips t without one.
func goCommand(t *testing.T) string {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	return gocmd
}

// TestCoreDependencies: the core imports no store implementation and no database driver
// (a program chooses those by import), so a program that only wants a workspace in memory
// does not link SQLite, PostgreSQL or the host store; nor net/http.
func TestCoreDependencies(t *testing.T) {
	out, err := exec.Command(goCommand(t), "list", "-deps", "github.com/llmfs/llmfs").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	// Nor an object storage client (store/blob/s3blob's), nor a file system face's
	// protocol (package mount's FUSE and NFS).
	banned := []string{"modernc.org/", "pgx", "database/sql", "github.com/llmfs/llmfs/store/", "github.com/aws/", "gofakes3", "go-fuse", "go-nfs", "go-billy"}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" { // the core has no network: an image is told by its signature
			t.Errorf("the core depends on %s", dep)
		}
		for _, b := range banned {
			if strings.Contains(dep, b) {
				t.Errorf("the core depends on %s", dep)
			}
		}
	}
}

// TestCoreBinarySize: a program that makes a workspace in memory and nothing else stays
// small (it was 14.4 MB when the core linked both database drivers).
func TestCoreBinarySize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	prog := `package main

import (
	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
)

func main() { llmfs.New(mem.New(), nil) }
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "empty")
	if out, err := exec.Command(goCommand(t), "build", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	const max = 8 << 20
	t.Logf("empty program: %d bytes", fi.Size())
	if fi.Size() >= max {
		t.Errorf("an empty program importing the core is %d bytes, want under %d", fi.Size(), max)
	}
}
