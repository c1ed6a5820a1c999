package mcpserver

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listTTL is how long a client may keep tools/list, prompts/list,
// resources/templates/list and server/discover: they are fixed for the life of a server
// (the tools by its dialect and mode), and a restart with other flags is the only change.
// Files change at any moment, so resources/list and resources/read get no TTL: clients
// learn of changes by subscribing.
const listTTL = 5 * time.Minute

// setCacheable fills the cache hints of every cacheable result (2026-07-28). Each is
// "private": what llmfs answers depends on the token (its mode, its workspace in a fleet)
// and on the files, so a shared gateway must never serve one caller's answer to another.
// The go-sdk's default, "public", would let it.
func setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	c.CacheScope = "private"
	switch req.(type) {
	case *mcp.ListToolsRequest, *mcp.ListPromptsRequest, *mcp.ListResourceTemplatesRequest, *mcp.DiscoverRequest:
		c.TTLMs = int(listTTL.Milliseconds())
	default:
		c.TTLMs = 0
	}
}
