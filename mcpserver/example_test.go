package mcpserver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/store/mem"
)

// A server over an in-memory workspace, and a client calling two of its tools; a failure
// comes back as an isError result whose text starts with the code.
func Example() {
	ctx := context.Background()
	srv, err := mcpserver.New(llmfs.New(mem.New(), nil), nil)
	if err != nil {
		log.Fatal(err)
	}
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Wait()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"file_write", map[string]any{"path": "notes/a.txt", "content": "hello\n"}},
		{"file_read", map[string]any{"path": "notes/a.txt"}},
		{"file_read", map[string]any{"path": "notes/b.txt"}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// false {"path":"/notes/a.txt"}
	// false {"content":"hello\n","total_lines":1}
	// true FILE_NOT_FOUND: no such file or directory: notes/b.txt
}
