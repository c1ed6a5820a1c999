//go:build !js && !wasip1

// Package jsonrpc is a small JSON-RPC 2.0 peer over newline-delimited JSON, the transport
// of the Agent Client Protocol: one message per line, in both directions, on one stream.
//
// A [Conn] both calls and serves. Requests in either direction may overlap: each incoming
// request runs in its own goroutine and its response goes out when it is ready, so a slow
// handler never blocks the connection, and outgoing calls are matched to responses by id.
// Incoming notifications run one at a time, in the order they arrived.
//
// Messages have no size limit beyond memory: ACP carries whole files in one message.
// Batches (JSON arrays) are not part of ACP and are answered with one -32600 error. A
// request whose id is null is taken for a notification: ACP peers never send one.
package jsonrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
)

// Standard JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Error is a JSON-RPC error object. A [Handler] returns one to choose the code the peer
// sees; [Conn.Call] returns one when the peer answered with an error.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string {
	if len(e.Data) > 0 {
		return fmt.Sprintf("jsonrpc error %d: %s (%s)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// NewError returns an *Error with data encoded as JSON (nil for none).
func NewError(code int, message string, data any) *Error {
	e := &Error{Code: code, Message: message}
	if data != nil {
		b, err := marshal(data)
		if err == nil {
			e.Data = b
		}
	}
	return e
}

// InvalidParams returns a -32602 error with a formatted message.
func InvalidParams(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: "Invalid params: " + fmt.Sprintf(format, args...)}
}

// MethodNotFound returns the -32601 error for method.
func MethodNotFound(method string) *Error {
	return NewError(CodeMethodNotFound, "Method not found: "+method, map[string]string{"method": method})
}

// Decode unmarshals params into v and turns any failure into a -32602 error. Missing
// params decode as an empty object.
func Decode(params json.RawMessage, v any) error {
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		params = []byte("{}")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return InvalidParams("%v", err)
	}
	return nil
}

// ErrClosed is returned by calls on a connection that has closed.
var ErrClosed = errors.New("jsonrpc: connection closed")

// A Handler serves incoming messages. For a request it returns the result (encoded as
// JSON; nil becomes null) or an error: an *[Error] goes to the peer as it is, any other
// error as -32603 with its text. For a notification the result is dropped.
//
// Requests are served concurrently, each in its own goroutine; notifications one at a
// time in arrival order. A notification handler may call [Conn.Call], but then later
// notifications wait for it.
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Conn is one JSON-RPC peer on a stream. It is safe for concurrent use.
type Conn struct {
	r       *bufio.Reader
	w       io.Writer
	closer  io.Closer
	handler Handler

	writeMu     sync.Mutex  // one message at a time on the stream
	writeClosed atomic.Bool // set by Close; until then responses go out even after the peer's EOF

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan *message // by canonical id
	closed  bool
	err     error // why the connection closed

	ctx    context.Context // cancelled by Close, to stop handlers
	cancel context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup

	// Notifications wait in an unbounded queue, so that the reader never blocks behind a
	// notification handler (which may itself be waiting for a response the reader brings).
	noteMu   sync.Mutex
	noteCond *sync.Cond
	notes    []*message
	noteEnd  bool
	noteRecv int // notifications queued so far
	noteDone int // notifications handled so far

	readDone chan struct{} // closed when the reader loop has returned
}

// message is any JSON-RPC message, for both decoding and encoding.
type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *Error           `json:"error,omitempty"`
}

// response is a message that always carries its result or error and an id (null allowed).
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// NewConn starts a connection that reads messages from r and writes them to w, and serves
// incoming messages with h (nil answers every request with -32601). If w is an
// [io.Closer], [Conn.Close] closes it. The connection ends when r reaches EOF or fails, or
// on Close.
func NewConn(r io.Reader, w io.Writer, h Handler) *Conn {
	if h == nil {
		h = func(_ context.Context, method string, _ json.RawMessage) (any, error) {
			return nil, MethodNotFound(method)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Conn{
		r:       bufio.NewReaderSize(r, 64<<10),
		w:       w,
		handler: h,
		pending: map[string]chan *message{},
		ctx:     ctx,
		cancel:  cancel,
		done:    make(chan struct{}),

		readDone: make(chan struct{}),
	}
	c.noteCond = sync.NewCond(&c.noteMu)
	if cl, ok := w.(io.Closer); ok {
		c.closer = cl
	}
	go c.serveNotes()
	go c.read()
	return c
}

// Done is closed when the connection has ended: the peer's stream reached EOF or failed,
// or Close was called. After the peer's EOF, requests it sent before are still answered
// (a peer may half-close), but calls to it fail with [ErrClosed].
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended ([ErrClosed] after Close, nil on a clean EOF), or
// nil while it runs.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the connection: pending calls fail with [ErrClosed], running handlers see
// their context cancelled, nothing more is written, and the writer is closed if it is an
// [io.Closer] (which also ends a write blocked on a peer that stopped reading). The reader
// is not closed; the caller owns it.
func (c *Conn) Close() error {
	c.shutdown(ErrClosed)
	c.cancel()
	c.writeClosed.Store(true)
	if c.closer == nil {
		return nil
	}
	// Close the writer before taking writeMu: a write blocked on a peer that stopped
	// reading holds the lock, and only closing the stream unblocks it.
	err := c.closer.Close()
	c.writeMu.Lock() // wait out a write in flight, so nothing is written after Close
	//lint:ignore SA2001 the empty section is the point: a barrier behind that write
	c.writeMu.Unlock()
	return err
}

// Wait blocks until the reader has stopped (at EOF or a read error) and every handler
// has returned. Close alone does not stop a reader blocked on input: close the reader, or
// end the peer, for that.
func (c *Conn) Wait() error {
	<-c.readDone
	c.wg.Wait()
	return c.Err()
}

// SyncNotifications waits until every notification received so far has been handled.
// Call it after a call returns to see the effects of the notifications the peer sent
// before its response (ACP agents send session updates, then answer the prompt).
func (c *Conn) SyncNotifications() {
	c.noteMu.Lock()
	defer c.noteMu.Unlock()
	target := c.noteRecv
	for c.noteDone < target {
		c.noteCond.Wait()
	}
}

func (c *Conn) shutdown(err error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.err = err
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	for _, ch := range pending {
		close(ch)
	}
	close(c.done)
}

// Call sends a request and waits for its response, which it decodes into result (unless
// result is nil). A peer's error comes back as an *[Error]. If ctx ends first, Call returns
// ctx.Err() and the late response, if any, is dropped.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	p, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("jsonrpc: %s: encoding params: %w", method, err)
	}
	ch := make(chan *message, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	c.nextID++
	key := strconv.FormatInt(c.nextID, 10)
	c.pending[key] = ch
	c.mu.Unlock()
	id := json.RawMessage(key)
	if err := c.write(&message{JSONRPC: "2.0", ID: &id, Method: method, Params: p}); err != nil {
		c.forget(key)
		return err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return ErrClosed
		}
		if resp.Error != nil {
			return resp.Error
		}
		if result == nil {
			return nil
		}
		if len(resp.Result) == 0 {
			return fmt.Errorf("jsonrpc: %s: response has no result", method)
		}
		if err := json.Unmarshal(resp.Result, result); err != nil {
			return fmt.Errorf("jsonrpc: %s: decoding result: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		c.forget(key)
		return ctx.Err()
	}
}

// Notify sends a notification.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	p, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("jsonrpc: %s: encoding params: %w", method, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.write(&message{JSONRPC: "2.0", Method: method, Params: p})
}

func (c *Conn) forget(key string) {
	c.mu.Lock()
	if c.pending != nil {
		delete(c.pending, key)
	}
	c.mu.Unlock()
}

func marshalParams(params any) (json.RawMessage, error) {
	if params == nil {
		return nil, nil
	}
	if raw, ok := params.(json.RawMessage); ok {
		return raw, nil
	}
	return marshal(params)
}

// marshal encodes v as JSON without Go's HTML escaping: peers read "<" better than
// "\u003c", and both mean the same.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// write sends one message as one line. Go's encoder escapes newlines inside strings, so
// a message never spans lines.
func (c *Conn) write(v any) error {
	b, err := marshal(v)
	if err != nil {
		return fmt.Errorf("jsonrpc: encoding message: %w", err)
	}
	b = append(b, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.writeClosed.Load() {
		return ErrClosed
	}
	if _, err := c.w.Write(b); err != nil {
		return fmt.Errorf("jsonrpc: writing message: %w", err)
	}
	return nil
}

// read is the connection's reader loop.
func (c *Conn) read() {
	defer func() {
		c.noteMu.Lock()
		c.noteEnd = true
		c.noteCond.Broadcast()
		c.noteMu.Unlock()
		close(c.readDone)
	}()
	for {
		line, err := c.r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			c.dispatch(line)
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			c.shutdown(err)
			return
		}
	}
}

// dispatch handles one incoming line.
func (c *Conn) dispatch(line []byte) {
	line = bytes.TrimSpace(line)
	if line[0] == '[' {
		c.reply(nil, nil, NewError(CodeInvalidRequest, "Invalid request: batches are not supported", nil))
		return
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || !json.Valid(line) {
			c.reply(nil, nil, NewError(CodeParseError, "Parse error: "+err.Error(), nil))
		} else {
			c.reply(rawID(line), nil, NewError(CodeInvalidRequest, "Invalid request: "+err.Error(), nil))
		}
		return
	}
	var id json.RawMessage
	if m.ID != nil {
		id = *m.ID
	}
	if m.JSONRPC != "2.0" {
		c.reply(id, nil, NewError(CodeInvalidRequest, `Invalid request: "jsonrpc" must be "2.0"`, nil))
		return
	}
	switch {
	case m.Method != "" && m.ID != nil:
		if !validID(id) {
			c.reply(nil, nil, NewError(CodeInvalidRequest, "Invalid request: id must be a string, a number or null", nil))
			return
		}
		c.wg.Add(1)
		go c.serveRequest(id, &m)
	case m.Method != "":
		c.wg.Add(1)
		c.noteMu.Lock()
		c.notes = append(c.notes, &m)
		c.noteRecv++
		c.noteCond.Broadcast()
		c.noteMu.Unlock()
	case m.ID != nil && (m.Result != nil || m.Error != nil):
		c.mu.Lock()
		ch := c.pending[canonicalID(id)]
		if ch != nil {
			delete(c.pending, canonicalID(id))
		}
		c.mu.Unlock()
		if ch != nil {
			ch <- &m
		}
		// A response nobody waits for (a call given up on) is dropped.
	default:
		c.reply(id, nil, NewError(CodeInvalidRequest, "Invalid request: neither a request, a notification nor a response", nil))
	}
}

func (c *Conn) serveRequest(id json.RawMessage, m *message) {
	defer c.wg.Done()
	res, err := c.call(m)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: CodeInternalError, Message: err.Error()}
		}
		c.reply(id, nil, e)
		return
	}
	b, err := marshal(res)
	if err != nil {
		c.reply(id, nil, NewError(CodeInternalError, "encoding result: "+err.Error(), nil))
		return
	}
	c.reply(id, b, nil)
}

// call runs the handler, turning a panic into an internal error so that no input can
// bring the connection down.
func (c *Conn) call(m *message) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, NewError(CodeInternalError, fmt.Sprintf("internal error: %v", p), nil)
		}
	}()
	return c.handler(c.ctx, m.Method, m.Params)
}

func (c *Conn) serveNotes() {
	for {
		c.noteMu.Lock()
		for len(c.notes) == 0 && !c.noteEnd {
			c.noteCond.Wait()
		}
		if len(c.notes) == 0 {
			c.noteMu.Unlock()
			return
		}
		m := c.notes[0]
		c.notes[0] = nil
		c.notes = c.notes[1:]
		c.noteMu.Unlock()
		c.call(m)
		c.noteMu.Lock()
		c.noteDone++
		c.noteCond.Broadcast()
		c.noteMu.Unlock()
		c.wg.Done()
	}
}

func (c *Conn) reply(id, result json.RawMessage, e *Error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	if e == nil && result == nil {
		result = json.RawMessage("null")
	}
	// A write error means the peer is gone; the reader will see it too.
	_ = c.write(&response{JSONRPC: "2.0", ID: id, Result: result, Error: e})
}

// validID reports whether id is a JSON string, number or null.
func validID(id json.RawMessage) bool {
	var v any
	if err := json.Unmarshal(id, &v); err != nil {
		return false
	}
	switch v.(type) {
	case string, float64, nil:
		return true
	}
	return false
}

// canonicalID maps the ids 7, 7.0 and "7" of a response to the key Call stored.
func canonicalID(id json.RawMessage) string {
	var v any
	if err := json.Unmarshal(id, &v); err != nil {
		return string(id)
	}
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return string(id)
}

// rawID digs the id out of a message that is valid JSON but not a valid message, so the
// error can name it.
func rawID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) == nil && validID(m.ID) {
		return m.ID
	}
	return nil
}
