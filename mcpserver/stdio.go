package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs/mcpserver/internal/stdio"
)

// A StdioTransport serves MCP as newline-delimited JSON over a reader and a writer,
// standard input and output by default. Unlike [mcp.StdioTransport], a line that is not
// a valid JSON-RPC 2.0 message never ends the session: it gets an error response
// (-32700 for what is not JSON, -32600 for what is not a request or response, with
// "id": null where no id can be read), and the server reads on. A batch is refused in
// the same way: MCP has none since 2025-06-18.
//
// A line longer than MaxFrameBytes gets a -32600 response; the rest of it is read and
// thrown away without being held in memory.
//
// At the end of the input the calls already read still run and answer before the
// connection closes; a request the server made to the client (roots/list) then gets an
// error, since no answer can come.
//
// Served with [ServeStdio] rather than [mcp.Server.Run], it runs the plain tool calls of
// a server made by [New] itself, side by side.
type StdioTransport = stdio.Transport

// DefaultMaxFrameBytes is the default of [StdioTransport.MaxFrameBytes]: room for a
// large write.
const DefaultMaxFrameBytes = stdio.DefaultMaxFrameBytes

// MaxStdioCalls is the most tool calls a [ServeStdio] connection runs itself at once.
// When that many are running, the transport stops reading until one ends, so a client
// that floods the server waits on the pipe instead of growing the server's goroutines;
// except while the server waits for an answer of the client (its roots), which must be
// read: the calls that come meanwhile go to the go-sdk, as they all did before.
const MaxStdioCalls = stdio.MaxCalls

// ServeStdio serves srv on t until the client ends the session or ctx is done, as
// srv.Run(ctx, t) does. For a server made by [New], the transport runs the plain tool
// calls of an initialized session itself, side by side on worker goroutines (at most
// [MaxStdioCalls] at once): the same tool handler, on the same session, with the same
// result, but without the go-sdk's per-request decoding of the params and their _meta,
// its goroutine hand-offs and its second encoding of the result, which together cost a
// small read more CPU than the read itself. A call with a _meta (a progress token, roots
// for the request, the 2026-07-28 protocol's fields), a call of a tool the mode hides,
// one made before initialize, or one whose session must first ask the client for its
// roots goes through the go-sdk as before. notifications/cancelled cancels either kind.
// Once [Server.MCP] has been called, every call goes through the go-sdk: middleware
// added there must see them all.
func ServeStdio(ctx context.Context, server *Server, t *StdioTransport) error {
	s, srv := server.state, server.mcp
	if s == nil || server.exposed.Load() {
		return srv.Run(ctx, t)
	}
	return stdio.Serve(ctx, srv, t, stdioTools{s})
}

// stdioTools gives the stdio transport the server's tool handlers ([stdio.Tools]).
type stdioTools struct{ s *server }

func (t stdioTools) Handler(ctx context.Context, ss *mcp.ServerSession, name string) mcp.ToolHandler {
	handler := t.s.handlers[name]
	if handler == nil {
		return nil
	}
	if st, err := t.s.session(ctx, ss); err != nil || st.stale.Load() {
		return nil
	}
	return handler
}

// RootsChanged marks the session's roots for fetching before its next call, as
// rootsChangedMiddleware does, but as the notification is read: the go-sdk handles it
// after Read returns it, and a call read after it must not run here on the old roots.
func (t stdioTools) RootsChanged(ctx context.Context, ss *mcp.ServerSession) {
	if st, err := t.s.session(ctx, ss); err == nil {
		st.stale.Store(!t.s.roots[0].Settings().Relaxed)
	}
}
