//go:build !js && !wasip1

package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeWorkspaces runs `llmfs serve` in-process: with neither --root nor --store it
// serves the current directory; with --store and --workspace, the virtual workspace.
func TestServeWorkspaces(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "on-disk.txt"), []byte("disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if code, out, errOut := runCLI(t, "ws", "create", "--store", "sqlite:llmfs.db", "demo"); code != 0 {
		t.Fatal(out, errOut)
	}
	if code, out, errOut := runCLI(t, "write", "--store", "sqlite:llmfs.db", "--workspace", "demo", "in-db.txt", "db\n"); code != 0 {
		t.Fatal(out, errOut)
	}
	for _, tc := range []struct {
		args       []string
		want, lack string
	}{
		{nil, "on-disk.txt", "in-db.txt"},
		{[]string{"--store", "sqlite:llmfs.db", "--workspace", "demo"}, "in-db.txt", "on-disk.txt"},
	} {
		listing := serveAndList(t, tc.args...)
		if !strings.Contains(listing, tc.want) || strings.Contains(listing, tc.lack) {
			t.Errorf("serve %v lists %s; want %s and not %s", tc.args, listing, tc.want, tc.lack)
		}
	}
}

// serveAndList starts llmfs serve with args, lists "." through an MCP client, and stops it.
func serveAndList(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &urlWriter{found: make(chan string, 1)}
	done := make(chan int, 1)
	go func() {
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--token", "tok", "--agent-md=false"}, args...)
		done <- run(ctx, args, strings.NewReader(""), &strings.Builder{}, stderr)
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
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   url,
		HTTPClient: &http.Client{Transport: bearer{"tok"}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "directory_list", Arguments: map[string]any{"path": "."}})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("directory_list: %v, %+v", err, res)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// urlWriter collects the server's standard error and sends the MCP URL once it shows.
type urlWriter struct {
	mu    sync.Mutex
	buf   strings.Builder
	found chan string
	sent  bool
}

var servingRE = regexp.MustCompile(`serving MCP at (http://\S+)`)

func (w *urlWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := servingRE.FindStringSubmatch(w.buf.String()); m != nil && !w.sent {
		w.sent = true
		w.found <- m[1]
	}
	return len(p), nil
}

func (w *urlWriter) text() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
