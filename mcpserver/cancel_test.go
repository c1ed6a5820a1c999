//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
)

// bigTree writes files × size bytes of text with no match for the tests' patterns.
func bigTree(t *testing.T, files, size int) string {
	t.Helper()
	dir := t.TempDir()
	line := strings.Repeat("the quick brown fox jumps over the lazy dog 0123456789 ", 2) + "\n"
	body := []byte(strings.Repeat(line, size/len(line)))
	for i := range files {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%20))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%04d.txt", i)), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGrepProgressAndCancel: a grep called with a progress token reports progress while
// it runs; notifications/cancelled cancels its context, the search stops, and the call
// answers that it was cancelled. The server side is observed through a middleware that
// records what the tools/call handler returned.
func TestGrepProgressAndCancel(t *testing.T) {
	dir := bigTree(t, 400, 256<<10) // 100 MiB
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{ProgressInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		res     *mcp.CallToolResult
		elapsed time.Duration
	}
	handled := make(chan outcome, 1)
	var cancelledAt atomic.Pointer[time.Time]
	srv.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				var since time.Duration
				if at := cancelledAt.Load(); at != nil {
					since = time.Since(*at)
				}
				r, _ := res.(*mcp.CallToolResult)
				handled <- outcome{r, since}
			}
			return res, err
		}
	})
	progress := make(chan *mcp.ProgressNotificationParams, 100)
	client := mcp.NewClient(&mcp.Implementation{Name: "cancel-test", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params:
			default:
			}
		},
	})
	cs := connectInMemory(t, srv, client)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	params := &mcp.CallToolParams{Name: "file_grep", Arguments: json.RawMessage(`{"pattern":"(?i)z[0-9]{4}q|x{3}y","output_mode":"content","head_limit":0}`)}
	params.SetProgressToken("grep-1")
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, params)
		errc <- err
	}()
	select {
	case p := <-progress:
		if p.ProgressToken != "grep-1" || p.Progress < 1 || !strings.Contains(p.Message, "file_grep") {
			t.Errorf("progress notification %+v", p)
		}
	case o := <-handled:
		t.Fatalf("the grep ended before any progress: %v", o.res)
	case <-time.After(30 * time.Second):
		t.Fatal("no progress notification")
	}
	now := time.Now()
	cancelledAt.Store(&now)
	cancel() // the go-sdk client sends notifications/cancelled
	if err := <-errc; err == nil {
		t.Errorf("the cancelled call returned no error to the client")
	}
	select {
	case o := <-handled:
		if o.res == nil || !o.res.IsError || !strings.Contains(text(o.res), "cancelled") {
			t.Fatalf("the server answered %v, want a cancelled error (the search ran to its end?)", o.res)
		}
		t.Logf("the grep stopped %s after the client cancelled", o.elapsed)
	case <-time.After(30 * time.Second):
		t.Fatal("the grep went on after the cancellation")
	}
}
