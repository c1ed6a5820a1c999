//go:build !js && !wasip1

package host_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestOpen: a host workspace reads and writes its directory, through a symbolic link to
// the root too, and refuses what lies outside.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	ws, err := host.Open(&llmfs.Options{Root: link})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ws.Write(ctx, filepath.Join(link, "a.txt"), "hi\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(real, "a.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("a.txt = %q, %v", b, err)
	}
	if _, err := ws.Read(ctx, "../x", llmfs.ReadOptions{}); llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
		t.Errorf("read ../x: %v, want %s", err, llmfs.CodeInvalidPath)
	}
}

// TestOpenBadRoot: a root that is missing or no directory is a coded error.
func TestOpenBadRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for root, want := range map[string]llmfs.Code{
		filepath.Join(dir, "missing"): llmfs.CodeFileNotFound,
		file:                          llmfs.CodeInvalidPath,
	} {
		if _, err := host.Open(&llmfs.Options{Root: root}); llmfs.CodeOf(err) != want {
			t.Errorf("open %s: %v, want %s", root, err, want)
		}
	}
}

// TestHostLinksNoPostgres: the host store's journal is SQLite; a program opening host
// workspaces does not link the PostgreSQL driver.
func TestHostLinksNoPostgres(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gocmd, "list", "-deps", "github.com/llmfs/llmfs/host").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "pgx") {
			t.Errorf("package host depends on %s", dep)
		}
	}
}
