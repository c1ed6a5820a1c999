// Package release holds no code: its tests check the release artifacts as a user meets
// them (the npm packages installed from their tarballs, the install lines and client
// configurations of README.md and docs/, the MCP bundle manifest and server.json).
package release_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// requireTool returns the path of a program the test needs, or skips the test without it
// (it fails instead when LLMFS_REQUIRE_INTEROP=1, as in CI).
func requireTool(t *testing.T, name, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("LLMFS_REQUIRE_INTEROP") == "1" {
			t.Fatalf("%s is missing (%s) and LLMFS_REQUIRE_INTEROP=1", name, why)
		}
		t.Skipf("%s is missing: %s", name, why)
	}
	return p
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build ./cmd/llmfs: " + e.err.Error() + "\n" + e.out }

// checkServer starts cmd as an MCP server through the Go SDK's client, which sends
// initialize, and reads a file of root through it.
func checkServer(t *testing.T, cmd *exec.Cmd, root string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from llmfs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "release-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to %v: %v\nstderr:\n%s", cmd.Args, err, stderr.String())
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Name; !strings.Contains(got, "llmfs") {
		t.Errorf("server name = %q, want llmfs", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_read", Arguments: map[string]any{"path": "hello.txt"}})
	if err != nil {
		t.Fatalf("file_read: %v\nstderr:\n%s", err, stderr.String())
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError || !strings.Contains(text.String(), "hello from llmfs") {
		t.Errorf("file_read = %q (error %v), want the file's text", text.String(), res.IsError)
	}
}
