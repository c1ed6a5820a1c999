package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxStdioCalls is the most tool calls a [ServeStdio] connection runs itself at once.
// When that many are running, the transport stops reading until one ends, so a client
// that floods the server waits on the pipe instead of growing the server's goroutines;
// except while the server waits for an answer of the client (its roots), which must be
// read: the calls that come meanwhile go to the go-sdk, as they all did before.
const MaxStdioCalls = 64

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
	lt := &linkingTransport{t: t}
	ss, err := srv.Connect(ctx, lt, nil)
	if err != nil {
		return err
	}
	lt.conn.link(&stdioCalls{s: s, ss: ss, work: make(chan func())})
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

// stdioCalls runs a connection's tool calls without the go-sdk, on at most
// [MaxStdioCalls] worker goroutines. The workers stay until the connection closes: a
// goroutine made for each call would grow its stack anew each time (runtime.newstack was
// a tenth of the CPU of a small read).
type stdioCalls struct {
	s    *server
	ss   *mcp.ServerSession
	work chan func() // to an idle worker

	mu      sync.Mutex
	workers int
}

// run runs job on an idle worker, or a new one while there are fewer than
// [MaxStdioCalls], or else waits for a worker to be free. It reports false, for the
// go-sdk to take the call, if the connection closed first, or if the server waits for an
// answer of the client (roots/list): Read must not stop reading then, or the workers
// waiting behind that answer (on the session's roots) would never get it.
func (sc *stdioCalls) run(c *stdioConn, job func()) bool {
	select {
	case sc.work <- job:
		return true
	default:
	}
	sc.mu.Lock()
	if sc.workers < MaxStdioCalls {
		sc.workers++
		sc.mu.Unlock()
		go sc.worker(c, job)
		return true
	}
	sc.mu.Unlock()
	c.mu.Lock()
	asking, waiting := c.asking, len(c.outgoing) > 0
	c.mu.Unlock()
	if waiting {
		return false
	}
	select {
	case sc.work <- job:
		return true
	case <-asking:
		return false
	case <-c.closed:
		return false
	}
}

func (sc *stdioCalls) worker(c *stdioConn, job func()) {
	for {
		job()
		select {
		case job = <-sc.work:
		case <-c.closed:
			return
		}
	}
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

// start runs the call req on a worker and reports true, or reports false for a request
// the go-sdk must handle. It waits for a free worker when [MaxStdioCalls] calls are
// running (but see run).
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
	// A call whose session must first ask the client for its roots goes to the go-sdk,
	// which has no bound; those that come while it asks may still run here and wait
	// behind it, and then run never makes Read wait (see run).
	if err != nil || st.stale.Load() {
		return false
	}
	// Cancellable from now on: a notifications/cancelled may be the next line.
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.running[req.ID] = cancel
	c.mu.Unlock()
	done := func() {
		c.mu.Lock()
		delete(c.running, req.ID)
		c.mu.Unlock()
		cancel()
	}
	call := &mcp.CallToolRequest{Session: sc.ss, Params: &mcp.CallToolParamsRaw{Name: p.Name, Arguments: p.Arguments}}
	ok := sc.run(c, func() {
		res, err := handler(ctx, call)
		done()
		c.writeCallResult(req.ID, res, err)
	})
	if !ok {
		done() // closed: the go-sdk refuses the call
	}
	return ok
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
		result, ok := appendTextResult(nil, res)
		if !ok {
			// MarshalJSON itself, not json.Marshal: json.Marshal would compact its
			// output once more, as the go-sdk's encoder does.
			result, err = res.MarshalJSON()
		}
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

// appendTextResult appends the JSON of res as [mcp.CallToolResult.MarshalJSON] writes
// it, once the [unescaper] has undone the HTML escapes of either, for the results a tool
// call makes but of images: one text content and the structured content as
// [tools.Marshal] wrote it, compact and with U+2028 and U+2029 escaped. MarshalJSON
// encodes the result by reflection and compacts the structured content once more, a
// fifth of the CPU of a small read. It reports false for any other result.
func appendTextResult(dst []byte, res *mcp.CallToolResult) ([]byte, bool) {
	if res.Meta != nil || len(res.Content) != 1 || res.InputRequests != nil || res.RequestState != "" {
		return nil, false
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok || text.Meta != nil || text.Annotations != nil {
		return nil, false
	}
	var structured json.RawMessage
	if res.StructuredContent != nil {
		structured, ok = res.StructuredContent.(json.RawMessage)
		if !ok || len(structured) == 0 || bytes.ContainsRune(structured, '\u2028') || bytes.ContainsRune(structured, '\u2029') {
			return nil, false
		}
	}
	quoted, err := json.Marshal(text.Text)
	if err != nil {
		return nil, false
	}
	dst = append(dst, `{"content":[{"type":"text","text":`...)
	dst = append(dst, quoted...)
	dst = append(dst, "}]"...)
	if structured != nil {
		dst = append(dst, `,"structuredContent":`...)
		dst = append(dst, structured...)
	}
	if res.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}'), true
}

// toWireError is the error response the go-sdk makes of a handler's error.
func toWireError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

// rootsChanged marks the session's roots for fetching before its next call, as
// rootsChangedMiddleware does, but as the notification is read: the go-sdk handles it
// after Read returns it, and a call read after it must not run here on the old roots.
func (sc *stdioCalls) rootsChanged(c *stdioConn) {
	if st, err := sc.s.session(c.ctx, sc.ss); err == nil {
		st.stale.Store(!sc.s.roots[0].Settings().Relaxed)
	}
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
