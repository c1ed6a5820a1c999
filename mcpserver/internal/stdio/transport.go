// Package stdio is the MCP server's transport on standard input and output, and its fast
// path: [Serve] runs the plain tool calls itself rather than through the go-sdk, which a
// benchmark (mcpserver's BenchmarkStdioInFlight) shows to pay: about half the time and a
// quarter of the bytes allocated per small read. Package mcpserver's
// TestServeStdioEveryToolAsRun sends every tool call of every dialect through both paths
// and compares the bytes.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/llmfs/llmfs/mcpserver/internal/listdir"
	"github.com/llmfs/llmfs/mcpserver/internal/unescape"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxFrameBytes is the default of [Transport.MaxFrameBytes]: room for a
// large write.
const DefaultMaxFrameBytes = 16 << 20

// maxDepth bounds the nesting of a message, as the go-sdk's decoder does; no MCP
// message comes near it.
const maxDepth = 1000

// A Transport serves MCP as newline-delimited JSON over a reader and a writer,
// standard input and output by default. Unlike [mcp.Transport], a line that is not
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
// Served with [Serve] rather than [mcp.Server.Run], it runs plain tool calls itself,
// side by side.
type Transport struct {
	In  io.Reader // default os.Stdin
	Out io.Writer // default os.Stdout
	// MaxFrameBytes bounds one line (one message). Zero means [DefaultMaxFrameBytes].
	MaxFrameBytes int
}

var _ mcp.Transport = (*Transport)(nil)

// Connect implements [mcp.Transport].
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	limit := t.MaxFrameBytes
	if limit <= 0 {
		limit = DefaultMaxFrameBytes
	}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c := &stdioConn{
		ctx:      cctx,
		cancel:   cancel,
		running:  map[jsonrpc.ID]context.CancelFunc{},
		out:      out,
		limit:    limit,
		lines:    make(chan frame),
		closed:   make(chan struct{}),
		changed:  make(chan struct{}),
		asking:   make(chan struct{}),
		incoming: map[jsonrpc.ID]bool{},
		outgoing: map[jsonrpc.ID]bool{},
	}
	go c.readLines(in, limit)
	return c, nil
}

// frame is one line of input, or why there is none.
type frame struct {
	line     []byte
	tooLarge int64 // the line's length when it was over the limit (line is nil)
	err      error // io.EOF at the end of the input
}

// stdioConn is the [mcp.Connection] of a [Transport].
type stdioConn struct {
	// ctx is the context of the calls the connection runs itself ([Serve]); Close
	// cancels it.
	ctx    context.Context
	cancel context.CancelFunc
	calls  atomic.Pointer[stdioCalls] // set by Serve once the session is made

	out   io.Writer
	limit int // bytes a line
	// The lines to write, written in batches: while one write is under way, the lines
	// that become ready queue up and go out together in the next, so that several
	// answers ready at once cost one write system call, not one each.
	writeMu  sync.Mutex
	written  sync.Cond // broadcast under writeMu when a batch is written
	pending  []byte    // lines queued for the next batch
	spare    []byte    // the last batch's buffer, for reuse
	queued   uint64    // lines queued so far
	flushed  uint64    // lines written (or failed) so far
	flushing bool      // a writer is writing a batch
	writeErr error     // the first failed write's error; every later write fails too

	lines  chan frame    // from readLines
	closed chan struct{} // closed by Close

	closeOnce sync.Once

	// eof is set by Read once the input has ended; only Read uses it.
	eof bool

	mu       sync.Mutex
	changed  chan struct{}                     // closed and replaced whenever incoming or outgoing shrinks
	asking   chan struct{}                     // closed and replaced whenever outgoing grows
	incoming map[jsonrpc.ID]bool               // calls read and not yet answered
	outgoing map[jsonrpc.ID]bool               // calls written to the client and not yet answered
	running  map[jsonrpc.ID]context.CancelFunc // calls the connection runs itself
}

// link makes the connection run the tool calls sc takes from now on.
func (c *stdioConn) link(sc *stdioCalls) { c.calls.Store(sc) }

// readLines sends the lines of in to c.lines until the input ends or c closes. A line
// over limit bytes is sent as its length only. Like the go-sdk's reader, it leaks if a
// read of in never returns after Close: standard input cannot be interrupted portably.
func (c *stdioConn) readLines(in io.Reader, limit int) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		f := readFrame(r, limit)
		select {
		case c.lines <- f:
		case <-c.closed:
			return
		}
		if f.err != nil {
			return
		}
	}
}

// readFrame reads one line of at most limit bytes, without its newline; of a longer line
// it keeps only the length, dropping the bytes as they come.
func readFrame(r *bufio.Reader, limit int) frame {
	var line []byte
	var n int64 // the line's length so far
	for {
		chunk, err := r.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		n += int64(len(chunk))
		if n <= int64(limit) {
			line = append(line, chunk...)
		} else {
			line = nil
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && n == 0:
			return frame{err: err}
		case n > int64(limit):
			return frame{tooLarge: n}
		}
		// A whole line, or the last one, without a newline, at the end of the input.
		if line == nil {
			line = []byte{}
		}
		return frame{line: line}
	}
}

func (c *stdioConn) SessionID() string { return "" }

// Read returns the next valid message. It answers bad lines itself and reads on.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if c.eof {
			return c.drain(ctx)
		}
		var f frame
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f = <-c.lines:
		}
		switch {
		case f.err != nil:
			c.eof = true
			if !errors.Is(f.err, io.EOF) {
				return nil, f.err
			}
			continue
		case f.tooLarge > 0:
			c.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a message of %d bytes is over the limit of %d bytes a line", f.tooLarge, c.limit))
			continue
		}
		msg, id, code, why := parse(f.line)
		if msg == nil {
			if code != 0 {
				c.reply(id, code, why)
			}
			continue
		}
		if !c.track(msg) {
			c.reply(id, jsonrpc.CodeInvalidRequest, "request id already in use by a call in progress")
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok {
			listdir.Lift(req)
			if sc := c.calls.Load(); sc != nil {
				switch req.Method {
				case "notifications/cancelled":
					c.cancelRunning(req)
				case "notifications/roots/list_changed":
					sc.rootsChanged(c)
				default:
					if sc.start(c, req) {
						continue
					}
				}
			}
		}
		return msg, nil
	}
}

// track records a call read (to wait for its answer at the end of the input) or a
// response to one of the server's calls. It reports false for a call whose id is already
// in progress.
func (c *stdioConn) track(msg jsonrpc.Message) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.IsCall() {
			if c.incoming[m.ID] {
				return false
			}
			c.incoming[m.ID] = true
		}
	case *jsonrpc.Response:
		if c.outgoing[m.ID] {
			delete(c.outgoing, m.ID)
			c.signal()
		}
	}
	return true
}

// signal wakes a Read waiting in drain. c.mu must be held.
func (c *stdioConn) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// drain runs after the end of the input: it fails the server's own calls to the client,
// which can get no answer now, and returns io.EOF once every call read has been
// answered, so that none is cancelled by the end of the input.
func (c *stdioConn) drain(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		for id := range c.outgoing {
			delete(c.outgoing, id)
			c.mu.Unlock()
			return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client closed its input"}}, nil
		}
		if len(c.incoming) == 0 {
			c.mu.Unlock()
			return nil, io.EOF
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		}
	}
}

// Write writes msg as one line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		// Once written (or failed), the call is answered; drain returns only after the
		// last answer is out.
		defer c.answered(m.ID)
	case *jsonrpc.Request:
		if m.IsCall() {
			// Before the write: the answer may be read before Write returns.
			c.mu.Lock()
			c.outgoing[m.ID] = true
			if c.asking != nil {
				close(c.asking) // wakes a Read waiting for a worker: see stdioCalls.run
				c.asking = make(chan struct{})
			}
			c.mu.Unlock()
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if data, ok := encodeResult(msg); ok {
		return c.writeLine(data)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeLine(data)
}

// encodeResult encodes a successful response as [jsonrpc.EncodeMessage] does, byte for
// byte, without passing its result through encoding/json once more: the go-sdk made the
// result with json.Marshal, so it is compact already, and re-encoding it (a compaction of
// the whole result, which is most of the message) was a tenth of the CPU of a small read.
// It reports false for any other message.
func encodeResult(msg jsonrpc.Message) ([]byte, bool) {
	r, ok := msg.(*jsonrpc.Response)
	if !ok || r.Error != nil || len(r.Result) == 0 || !r.ID.IsValid() {
		return nil, false
	}
	data := make([]byte, 0, len(r.Result)+64)
	data = append(data, `{"jsonrpc":"2.0","id":`...)
	data, ok = appendID(data, r.ID)
	if !ok {
		return nil, false
	}
	data = append(data, `,"result":`...)
	data = append(data, r.Result...)
	return append(data, '}'), true
}

// appendID appends id as [jsonrpc.EncodeMessage] writes it, with an encoder that does
// not escape HTML: json.Marshal would write "<a&b>" as "\u003ca\u0026b\u003e". Both
// escape U+2028 and U+2029. It reports false for an id that is neither an integer nor a
// string, which jsonrpc.MakeID does not make.
func appendID(data []byte, id jsonrpc.ID) ([]byte, bool) {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(data, v, 10), true // as encoding/json writes an int64
	case string:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) != nil {
			return nil, false
		}
		return append(data, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), true
	}
	return nil, false
}

// answered forgets the call id read from the client.
func (c *stdioConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.incoming[id] {
		delete(c.incoming, id)
		c.signal()
	}
}

// writeLine writes one message and its newline, with the go-sdk's HTML escapes undone
// (see [unescape.Writer]). It returns once the line is written, in a batch with the lines
// queued while the previous batch was being written.
func (c *stdioConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.written.L == nil {
		c.written.L = &c.writeMu
	}
	c.pending, _ = unescape.HTML(c.pending, data)
	c.pending = append(c.pending, '\n')
	c.queued++
	mine := c.queued
	for c.flushing && c.flushed < mine {
		c.written.Wait()
	}
	if c.flushed >= mine {
		return c.writeErr // written in another writer's batch
	}
	// Write the batch, this line last in it, and hand over to the writers that queued
	// lines meanwhile.
	c.flushing = true
	batch, upto := c.pending, c.queued
	c.pending = c.spare[:0]
	err := c.writeErr
	c.writeMu.Unlock()
	if err == nil {
		_, err = c.out.Write(batch)
	}
	c.writeMu.Lock()
	if err != nil && c.writeErr == nil {
		c.writeErr = err
	}
	c.spare = batch[:0]
	if cap(c.spare) > 1<<20 {
		c.spare = nil // do not keep a large write's buffer
	}
	c.flushed = upto
	c.flushing = false
	c.written.Broadcast()
	return c.writeErr
}

// reply writes an error response to a line that is no message. A nil id is written as
// null: the line's id could not be read.
func (c *stdioConn) reply(id any, code int64, msg string) {
	data, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	if err == nil {
		c.writeLine(data)
	}
}

// Close ends the connection and unblocks Read. It does not close the reader or the writer.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if c.cancel != nil {
			c.cancel()
		}
	})
	return nil
}

// parse checks that line is one JSON-RPC 2.0 message and decodes it. When it is not,
// msg is nil and code and why say what to answer, with id the line's id if it could be
// read (nil: answer with null). A blank line, or a response without a valid id, has
// no answer (code 0).
func parse(line []byte) (msg jsonrpc.Message, id any, code int64, why string) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil, 0, ""
	}
	if !json.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "parse error: the line is not one JSON value"
	}
	if depth(line) > maxDepth {
		return nil, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: nested more than %d levels deep", maxDepth)
	}
	if line[0] == '[' {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported (MCP has none since 2025-06-18); send one message a line"
	}
	// JSONRPC is a string, as in the go-sdk's wire struct: of "jsonrpc":"2.0" followed by
	// "jsonrpc":null a string keeps "2.0", where a pointer would be cleared. The raw
	// fields only decide whether the fast path applies; a line with a result or an error
	// is left to jsonrpc.DecodeMessage.
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if line[0] != '{' || decodeAsGoSDK(line, &env) != nil {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object"
	}
	id, ok := readID(env.ID)
	if !ok {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string, an integer or null"
	}
	switch {
	case env.JSONRPC != "2.0":
		return nil, id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
	case env.Method == nil && env.Result == nil && env.Error == nil:
		return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: no method, result or error"
	case env.Method != nil && (len(env.Method) == 0 || env.Method[0] != '"'):
		return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: method must be a string"
	}
	if env.Method != nil && env.Result == nil && env.Error == nil {
		// A request: what jsonrpc.DecodeMessage would make of it, without decoding the
		// line again (twice, each with a fresh 32 KiB buffer, in the go-sdk's decoder).
		if m, ok := request(id, env.Method, env.Params); ok {
			return m, id, 0, ""
		}
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		if env.Method == nil {
			return nil, nil, 0, "" // a response we cannot read: nothing to answer
		}
		return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return m, id, 0, ""
}

// request makes the request of a line whose id (as [readID] returned it), method and
// params have been read. It reports false if the method is not a string.
func request(id any, method, params json.RawMessage) (*jsonrpc.Request, bool) {
	var name string
	if decodeAsGoSDK(method, &name) != nil {
		return nil, false
	}
	if n, ok := id.(int64); ok {
		id = float64(n) // as a JSON decoder gives it to jsonrpc.MakeID; readID keeps it within 2^53
	}
	jid, err := jsonrpc.MakeID(id)
	if err != nil {
		return nil, false
	}
	return &jsonrpc.Request{ID: jid, Method: name, Params: params}, true
}

// readID returns the value of a message's id for an error response: a string, an integer
// or nil (absent or null). A number written with a fraction or an exponent that is still
// a whole number (1.0, 1e2) is that integer, as a JSON peer reading it back sees it. It
// reports false for any other value, and for numbers that are not whole or do not fit in
// the 53 bits a JSON number keeps exactly (the go-sdk would cut 1.5 to 1: an answer the
// client could not match to its call).
func readID(raw json.RawMessage) (any, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	switch raw[0] {
	case '"':
		var s string
		if decodeAsGoSDK(raw, &s) != nil {
			return nil, false
		}
		return s, true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(string(raw), 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return nil, false
			}
			n = int64(f)
		}
		if n > 1<<53 || n < -(1<<53) {
			return nil, false
		}
		return n, true
	}
	return nil, false
}

// depth returns how deeply the valid JSON value data nests objects and arrays.
func depth(data []byte) int {
	d, most := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			most = max(most, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return most
}
