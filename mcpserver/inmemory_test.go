package mcpserver_test

import (
	"context"
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/store/mem"
)

func TestNewInMemorySession(t *testing.T) {
	ctx := context.Background()
	ws := llmfs.New(mem.New(), nil)
	cs, err := mcpserver.NewInMemorySession(ctx, ws, &mcpserver.Options{Dialect: "rtc"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "read") || !strings.Contains(got, "edit") {
		t.Fatalf("tools = %s, want the rtc dialect's", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"path": "/a.txt", "content": "x\n"}})
	if err != nil || res.IsError {
		t.Fatalf("write: %v %+v", err, res)
	}
	if b, err := ws.ReadFile(ctx, "/a.txt", 1<<20); err != nil || string(b) != "x\n" {
		t.Fatalf("the workspace holds %q, %v; want the session's write", b, err)
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestNewInMemorySessionBadOptions(t *testing.T) {
	_, err := mcpserver.NewInMemorySession(context.Background(), llmfs.New(mem.New(), nil), &mcpserver.Options{Dialect: "nope"})
	if err == nil {
		t.Fatal("an unknown dialect gave a session")
	}
}

// One call gives a go-sdk client session on a workspace in this process: what ADK Go's
// mcptoolset and any other go-sdk program take (NewInMemoryTransport gives the transport).
func ExampleNewInMemorySession() {
	ctx := context.Background()
	cs, err := mcpserver.NewInMemorySession(ctx, llmfs.New(mem.New(), nil), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_write", Arguments: map[string]any{"path": "a.txt", "content": "hi\n"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: {"path":"/a.txt"}
}
