//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// BenchmarkToolCall measures one call through the dispatcher on a host directory with the
// default deny rules, as `llmfs mcp` makes it: strict decoding, the workspace, the JSON of
// the result. bench/mcp.sh measures the same calls through MCP.
func BenchmarkToolCall(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "small.txt"), []byte(strings.Repeat("a line of a small file\n", 30)), 0o644); err != nil {
		b.Fatal(err)
	}
	big := filepath.Join(dir, "sub", "big")
	if err := os.MkdirAll(big, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%05d.txt", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		b.Fatal(err)
	}
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, tool, args string }{
		{"file_read", "file_read", `{"path":"small.txt"}`},
		{"directory_list_10k", "directory_list", `{"path":"sub/big"}`},
		{"directory_list_10k_names", "directory_list", `{"path":"sub/big","names_only":true}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tb.Call(context.Background(), c.tool, json.RawMessage(c.args)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
