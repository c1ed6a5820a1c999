//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
)

// BenchmarkToolCall measures one tool call through MCP, client and server in this process
// over in-memory transports, with two served directories as bench/mcp.sh starts
// `llmfs mcp`: the JSON-RPC framing and encoding on both sides, the routing, the tool.
// The server's share of the CPU is measured by bench/mcp.sh.
func BenchmarkToolCall(b *testing.B) {
	dir, other := b.TempDir(), b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "small.txt"), []byte(strings.Repeat("a line of a small file\n", 30)), 0o644); err != nil {
		b.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%05d.txt", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var wss []*llmfs.Workspace
	for _, d := range []string{dir, other} {
		ws, err := host.Open(&llmfs.Options{Root: d})
		if err != nil {
			b.Fatal(err)
		}
		wss = append(wss, ws)
	}
	srv, err := mcpserver.New(wss[0], &mcpserver.Options{Roots: wss[1:]})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	for _, c := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"file_read", "file_read", map[string]any{"path": filepath.Join(dir, "small.txt")}},
		{"directory_list_10k", "directory_list", map[string]any{"path": big}},
		{"directory_list_10k_names", "directory_list", map[string]any{"path": big, "names_only": true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
	// 16 reads in flight, as bench/mcp.sh's second read measurement.
	b.Run("file_read_16", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(16) // per GOMAXPROCS: at least 16 calls in flight
		args := map[string]any{"path": filepath.Join(dir, "small.txt")}
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_read", Arguments: args})
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	})
}
