//go:build !js && !wasip1

package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeMemoriesOutsideTheTree: with --memories DIR the anthropic memory tool's notes go
// to DIR, and no memories directory appears in the served tree (issue 33 item 12).
func TestServeMemoriesOutsideTheTree(t *testing.T) {
	root, notes := t.TempDir(), filepath.Join(t.TempDir(), "notes")
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &urlWriter{found: make(chan string, 1)}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--token", "tok", "--root", root, "--dialect", "anthropic", "--memories", notes},
			strings.NewReader(""), &strings.Builder{}, stderr)
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d:\n%s", code, stderr.text())
		}
	}()
	var url string
	select {
	case url = <-stderr.found:
	case code := <-done:
		done <- code
		t.Fatalf("serve exited %d:\n%s", code, stderr.text())
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"tok"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory", Arguments: map[string]any{"command": "create", "path": "/memories/progress.md", "file_text": "step 1\n"}})
	if err != nil || res.IsError {
		t.Fatalf("memory create: %v, %+v", err, res)
	}
	if b, err := os.ReadFile(filepath.Join(notes, "progress.md")); err != nil || string(b) != "step 1\n" {
		t.Errorf("the note in --memories: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "memories")); !os.IsNotExist(err) {
		t.Errorf("a memories directory in the served tree: %v", err)
	}
}

// TestMemoriesFlagMisuse: --memories is for the anthropic dialect on host directories.
func TestMemoriesFlagMisuse(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, errOut := runCLI(t, "serve", "--addr", "127.0.0.1:0", "--memories", "notes")
	if code != 2 || !strings.Contains(errOut, "--dialect anthropic") {
		t.Errorf("--memories without the anthropic dialect: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat("notes"); !os.IsNotExist(err) {
		t.Errorf("the refused --memories made its directory: %v", err)
	}
}
