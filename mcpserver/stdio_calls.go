package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxStdioCalls is the most tool calls a [ServeStdio] connection runs itself at once.
// When that many are running, the transport stops reading until one ends, so a client
// that floods the server waits on the pipe instead of growing the server's goroutines.
const MaxStdioCalls = 64

// ServeStdio serves srv on t until the client ends the session or ctx is done, as
// srv.Run(ctx, t) does. For a server made by [New], the transport runs the plain tool
// calls of an initialized session itself, each in its own goroutine (at most
// [MaxStdioCalls] at once): the same tool handler, on the same session, with the same
// result, but without the go-sdk's per-request decoding of the params and their _meta,
// its goroutine hand-offs and its second encoding of the result, which together cost a
// small read more CPU than the read itself. A call with a _meta (a progress token, roots
// for the request, the 2026-07-28 protocol's fields), a call of a tool the mode hides,
// one made before initialize, or one whose session must first ask the client for its
// roots goes through the go-sdk as before. notifications/cancelled cancels either kind.
func ServeStdio(ctx context.Context, srv *mcp.Server, t *StdioTransport) error {
	s := lookupServer(srv)
	if s == nil {
		return srv.Run(ctx, t)
	}
	lt := &linkingTransport{t: t}
	ss, err := srv.Connect(ctx, lt, nil)
	if err != nil {
		return err
	}
	lt.conn.link(&stdioCalls{s: s, ss: ss, slots: make(chan struct{}, MaxStdioCalls)})
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-closed
		return ctx.Err()
	case err := <-closed:
		return err
	}
}

// linkingTransport keeps the connection its [StdioTransport] makes, for [ServeStdio] to
// link to the session the go-sdk makes of it.
type linkingTransport struct {
	t    *StdioTransport
	conn *stdioConn
}

func (lt *linkingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := lt.t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	lt.conn = c.(*stdioConn)
	return c, nil
}

// stdioCalls runs a connection's tool calls without the go-sdk.
type stdioCalls struct {
	s     *server
	ss    *mcp.ServerSession
	slots chan struct{} // one token a running call
}

// callParams are the params of tools/call, as [mcp.CallToolParamsRaw] reads them; the
// raw fields only tell whether the call needs the go-sdk.
type callParams struct {
	Meta           json.RawMessage `json:"_meta"`
	Name           string          `json:"name"`
	Arguments      json.RawMessage `json:"arguments"`
	InputResponses json.RawMessage `json:"inputResponses"`
	RequestState   json.RawMessage `json:"requestState"`
}

// start runs the call req in a goroutine of its own and reports true, or reports false
// for a request the go-sdk must handle. It waits for a free slot when
// [MaxStdioCalls] calls are running.
func (sc *stdioCalls) start(c *stdioConn, req *jsonrpc.Request) bool {
	if req.Method != "tools/call" || !req.ID.IsValid() || len(req.Params) == 0 || sc.ss.InitializeParams() == nil {
		return false
	}
	var p callParams
	if decodeAsGoSDK(req.Params, &p) != nil || p.Meta != nil || p.InputResponses != nil || p.RequestState != nil {
		return false
	}
	handler := sc.s.handlers[p.Name]
	if handler == nil {
		return false // unknown or hidden: the go-sdk's error, or denyHidden's result
	}
	st, err := sc.s.session(c.ctx, sc.ss)
	if err != nil || st.stale.Load() {
		return false // the go-sdk answers, or asks the client for its roots first
	}
	select {
	case sc.slots <- struct{}{}:
	case <-c.closed:
		return false
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.running[req.ID] = cancel
	c.mu.Unlock()
	call := &mcp.CallToolRequest{Session: sc.ss, Params: &mcp.CallToolParamsRaw{Name: p.Name, Arguments: p.Arguments}}
	go func() {
		defer func() { <-sc.slots }()
		res, err := handler(ctx, call)
		c.mu.Lock()
		delete(c.running, req.ID)
		c.mu.Unlock()
		cancel()
		c.writeCallResult(req.ID, res, err)
	}()
	return true
}

// writeCallResult writes the answer to a call the transport ran, as the go-sdk would
// have written it, and marks the call answered.
func (c *stdioConn) writeCallResult(id jsonrpc.ID, res *mcp.CallToolResult, err error) {
	defer c.answered(id)
	if err == nil && res == nil {
		err = errors.New("the tool returned no result")
	}
	if err == nil && res.Content == nil {
		res.Content = []mcp.Content{} // as the go-sdk does: "content" is never null
	}
	var data []byte
	if err == nil {
		// MarshalJSON itself, not json.Marshal: json.Marshal would compact its output
		// once more, as the go-sdk's encoder does.
		var result []byte
		result, err = res.MarshalJSON()
		if err == nil {
			data, _ = encodeResult(&jsonrpc.Response{ID: id, Result: result})
		}
	}
	if data == nil {
		if err == nil {
			err = errors.New("the result could not be encoded")
		}
		var merr error
		if data, merr = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: toWireError(err)}); merr != nil {
			return
		}
	}
	select {
	case <-c.closed:
		return // the session ended: the go-sdk writes nothing after its close either
	default:
	}
	c.writeLine(data)
}

// toWireError is the error response the go-sdk makes of a handler's error.
func toWireError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

// cancelRunning cancels the call a notifications/cancelled names, if the transport runs
// it. The notification still goes on to the go-sdk, which cancels its own calls.
func (c *stdioConn) cancelRunning(req *jsonrpc.Request) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if decodeAsGoSDK(req.Params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	c.mu.Lock()
	cancel := c.running[id]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// servers maps a server made by [New] to its state, for [ServeStdio]. Key and value are
// weak: the entry holds neither, and goes with the server.
var servers sync.Map // weak.Pointer[mcp.Server] -> weak.Pointer[server]
