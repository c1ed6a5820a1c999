package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
)

// NewInMemorySession serves ws in this process and returns a client session connected to
// it over the go-sdk's in-memory transports: no subprocess, no socket. It is the one call
// a program built on the go-sdk needs to use llmfs's tools as MCP tools. Closing the
// session ends the server's side too. opts are the server's, as for New.
func NewInMemorySession(ctx context.Context, ws *llmfs.Workspace, opts *Options) (*mcp.ClientSession, error) {
	t, err := NewInMemoryTransport(ctx, ws, opts)
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "llmfs-inmemory", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: connecting the in-memory client: %w", err)
	}
	return cs, nil
}

// NewInMemoryTransport serves ws in this process on one end of a pair of in-memory
// transports and returns the other end, for a client of one's own to connect to: ADK Go's
// mcptoolset (its Config.Transport) or an mcp.Client with handlers. The server's session
// ends when the client's does.
func NewInMemoryTransport(ctx context.Context, ws *llmfs.Workspace, opts *Options) (mcp.Transport, error) {
	srv, err := New(ws, opts)
	if err != nil {
		return nil, err
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		return nil, fmt.Errorf("mcpserver: connecting the in-memory server: %w", err)
	}
	return ct, nil
}
