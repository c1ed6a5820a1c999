//go:build !js && !wasip1

package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Issue 19.5: ws token create prints the secret once; list shows no secret; revoke
// stops it; a bad mode is a usage error.
func TestWSToken(t *testing.T) {
	t.Chdir(t.TempDir())
	dsn := "sqlite:llmfs.db"
	if code, out, errOut := runCLI(t, "ws", "create", "--store", dsn, "a"); code != 0 {
		t.Fatal(out, errOut)
	}
	code, secret, errOut := runCLI(t, "ws", "token", "create", "a", "--mode", "ro", "--name", "ci bot", "--store", dsn)
	secret = strings.TrimSpace(secret)
	if code != 0 || !strings.HasPrefix(secret, "llmfs_") || !strings.Contains(errOut, "read-only") {
		t.Fatalf("token create: %d %q %q", code, secret, errOut)
	}
	db, err := sqlstore.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tok, err := db.CheckToken(context.Background(), secret)
	if err != nil || tok.Mode != "read-only" || tok.Workspace != "a" {
		t.Fatalf("CheckToken: %+v %v", tok, err)
	}
	code, list, _ := runCLI(t, "ws", "token", "list", "a", "--store", dsn)
	if code != 0 || !strings.Contains(list, tok.ID) || !strings.Contains(list, "ci bot") || strings.Contains(list, secret[len(secret)-20:]) {
		t.Fatalf("token list: %d %s", code, list)
	}
	if code, _, errOut := runCLI(t, "ws", "token", "create", "a", "--mode", "root", "--store", dsn); code != 2 || !strings.Contains(errOut, "--mode") {
		t.Errorf("bad mode: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "ws", "token", "create", "nope", "--store", dsn); code == 0 || !strings.Contains(errOut, `no workspace "nope"`) {
		t.Errorf("missing workspace: %d %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "ws", "token", "revoke", "a", tok.ID, "--store", dsn); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %d %s %s", code, out, errOut)
	}
	if _, err := db.CheckToken(context.Background(), secret); err == nil {
		t.Error("a revoked token still checks")
	}
	if code, _, errOut := runCLI(t, "ws", "token", "revoke", "a", tok.ID, "--store", dsn); code == 0 || !strings.Contains(errOut, "no token") {
		t.Errorf("revoking twice: %d %s", code, errOut)
	}
	// Serving every workspace takes no --token.
	if code, _, errOut := runCLI(t, "serve", "--store", dsn, "--token", "x", "--addr", "127.0.0.1:0"); code != 2 || !strings.Contains(errOut, "ws token") {
		t.Errorf("serve --store --token: %d %s", code, errOut)
	}
}

// Issue 19.5: serve --store sqlite:... without --workspace serves every workspace of the
// file at /mcp/ID to the holders of its tokens.
func TestServeFleetSQLite(t *testing.T) {
	t.Chdir(t.TempDir())
	dsn := "sqlite:llmfs.db"
	for _, id := range []string{"a", "b"} {
		if code, out, errOut := runCLI(t, "ws", "create", "--store", dsn, id); code != 0 {
			t.Fatal(out, errOut)
		}
		if code, out, errOut := runCLI(t, "write", "--store", dsn, "--workspace", id, "/"+id+".txt", id+"\n"); code != 0 {
			t.Fatal(out, errOut)
		}
	}
	_, secret, _ := runCLI(t, "ws", "token", "create", "a", "--store", dsn)
	secret = strings.TrimSpace(secret)
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &urlWriter{found: make(chan string, 1)}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--store", dsn}, strings.NewReader(""), &strings.Builder{}, stderr)
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
	base := strings.TrimSuffix(url, "{workspace}")
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "a", HTTPClient: &http.Client{Transport: bearer{secret}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "directory_list", Arguments: map[string]any{"path": "/"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "a.txt") || strings.Contains(res.Content[0].(*mcp.TextContent).Text, "b.txt") {
		t.Fatalf("directory_list of a: %v %+v", err, res)
	}
	if _, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "b", HTTPClient: &http.Client{Transport: bearer{secret}}}, nil); err == nil {
		t.Error("a's token connected to b")
	}
}
