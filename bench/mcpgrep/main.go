//go:build !js && !wasip1

// Command mcpgrep has several MCP clients grep one workspace of `llmfs serve` at once, over
// streamable HTTP, for bench/s3.sh's memory measurement (the server's peak RSS while many
// clients grep a large workspace):
//
//	mcpgrep -url http://127.0.0.1:7788/mcp -token T -clients 16 -calls 2 -pattern 'never-there'
//
// Each client opens its own session and calls the agentool dialect's file_grep -calls times,
// one after another. It prints the calls made, the errors, the bytes of results and the wall
// time; its exit status is 1 if any call failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func main() {
	url := flag.String("url", "http://127.0.0.1:7788/mcp", "the server's MCP endpoint")
	token := flag.String("token", "", "the bearer token")
	clients := flag.Int("clients", 16, "clients grepping at once")
	calls := flag.Int("calls", 1, "greps per client, one after another")
	pattern := flag.String("pattern", "llmfs-never-matches-this", "the regular expression")
	timeout := flag.Duration("timeout", 30*time.Minute, "bound on the whole run")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	var failed, made, bytes atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for i := range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := client(ctx, *url, *token, *pattern, *calls, &made, &bytes); err != nil {
				failed.Add(1)
				fmt.Fprintf(os.Stderr, "mcpgrep: client %d: %v\n", i, err)
			}
		}()
	}
	wg.Wait()
	fmt.Printf("calls %d failed %d result_bytes %d wall_s %.2f\n", made.Load(), failed.Load(), bytes.Load(), time.Since(start).Seconds())
	if failed.Load() > 0 {
		os.Exit(1)
	}
}

// client connects once and greps calls times, adding to made and bytes.
func client(ctx context.Context, url, token, pattern string, calls int, made, bytes *atomic.Int64) error {
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpgrep", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	for range calls {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_grep", Arguments: map[string]any{"pattern": pattern}})
		if err != nil {
			return err
		}
		made.Add(1)
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				bytes.Add(int64(len(t.Text)))
				if res.IsError {
					return fmt.Errorf("file_grep: %s", t.Text)
				}
			}
		}
	}
	return nil
}
