//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs/mcpserver"
)

// revisions are the protocol revisions clients speak in late 2026.
var revisions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// TestProtocolRevisions: a go-sdk client at each revision runs every tool and reads a
// resource, over stdio (llmfs mcp) and HTTP (llmfs serve), and gets the revision it asked
// for.
func TestProtocolRevisions(t *testing.T) {
	for _, v := range revisions {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(v+"/"+transport, func(t *testing.T) {
				dir := tempDir(t)
				var cs *mcp.ClientSession
				if transport == "stdio" {
					cs = stdioSession(t, clientAt(v), "--root", dir)
				} else {
					cs = startServe(t, "--root", dir).connect(t, clientAt(v))
				}
				if got := cs.InitializeResult().ProtocolVersion; got != v {
					t.Fatalf("negotiated %s, want %s", got, v)
				}
				exerciseAgentool(t, cs, dir)
				writeFile(t, filepath.Join(dir, "r.txt"), "resource\n")
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: fileURI(filepath.Join(dir, "r.txt"))})
				if err != nil || res.Contents[0].Text != "resource\n" {
					t.Errorf("resources/read: %+v, %v", res, err)
				}
			})
		}
	}
}

// TestMetaRootsNarrow: the non-deprecated narrowing. A request naming directories under
// _meta["io.github.llmfs/roots"] is confined to them, at every revision (2026-07-28 has
// no roots); they never widen, and a malformed list allows nothing.
func TestMetaRootsNarrow(t *testing.T) {
	for _, v := range revisions {
		t.Run(v, func(t *testing.T) {
			dir, outside := tempDir(t), tempDir(t)
			writeFile(t, filepath.Join(dir, "sub", "in.txt"), "in\n")
			writeFile(t, filepath.Join(dir, "other", "no.txt"), "no\n")
			writeFile(t, filepath.Join(outside, "x.txt"), "x\n")
			cs := startServe(t, "--root", dir).connect(t, clientAt(v))
			narrow := func(name, args string, roots any) *mcp.CallToolResult {
				t.Helper()
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{
					Meta:      mcp.Meta{mcpserver.RootsMetaKey: roots},
					Name:      name,
					Arguments: json.RawMessage(args),
				})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			roots := []string{fileURI(filepath.Join(dir, "sub")), fileURI(outside)}
			if res := narrow("file_read", `{"path":"sub/in.txt"}`, roots); res.IsError {
				t.Errorf("inside: %s", text(res))
			}
			for _, args := range []string{`{"path":"other/no.txt"}`, `{"path":"` + outside + `/x.txt"}`} {
				if res := narrow("file_read", args, roots); !res.IsError {
					t.Errorf("%s passed the narrowing", args)
				}
			}
			if res := narrow("file_read", `{"path":"sub/in.txt"}`, "not a list"); !res.IsError {
				t.Error("a malformed roots list allowed a read")
			}
			// Without the key, the request has the whole directory.
			ok(t, cs, "file_read", `{"path":"other/no.txt"}`)
			// Resources too.
			ctx := context.Background()
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{Meta: mcp.Meta{mcpserver.RootsMetaKey: roots}, URI: fileURI(filepath.Join(dir, "other", "no.txt"))}); err == nil {
				t.Error("resources/read passed the narrowing")
			}
		})
	}
}
