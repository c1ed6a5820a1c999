//go:build !js && !wasip1

package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// pipePair returns two connections joined by OS pipes.
func pipePair(t *testing.T, ha, hb Handler) (a, b *Conn) {
	t.Helper()
	ar, bw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	br, aw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	a = NewConn(ar, aw, ha)
	b = NewConn(br, bw, hb)
	t.Cleanup(func() {
		a.Close()
		b.Close()
		ar.Close()
		br.Close()
	})
	return a, b
}

// rawPeer is a connection whose other end the test drives line by line.
type rawPeer struct {
	conn *Conn
	in   *os.File // what the test writes: the conn's input
	out  *bufio.Reader
}

func newRawPeer(t *testing.T, h Handler) *rawPeer {
	t.Helper()
	cr, tw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	tr, cw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := NewConn(cr, cw, h)
	t.Cleanup(func() { tw.Close(); c.Close(); cr.Close(); tr.Close() })
	return &rawPeer{conn: c, in: tw, out: bufio.NewReader(tr)}
}

func (p *rawPeer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := p.in.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}

func (p *rawPeer) recv(t *testing.T) map[string]any {
	t.Helper()
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading response: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("response %q is not JSON: %v", line, err)
	}
	return m
}

func echo(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "echo":
		return params, nil
	case "add":
		var p struct{ A, B int }
		if err := Decode(params, &p); err != nil {
			return nil, err
		}
		return p.A + p.B, nil
	case "fail":
		return nil, errors.New("plain failure")
	case "panic":
		panic("boom")
	}
	return nil, MethodNotFound(method)
}

func TestCallBothWays(t *testing.T) {
	a, b := pipePair(t, echo, echo)
	ctx := context.Background()
	var sum int
	if err := a.Call(ctx, "add", map[string]int{"a": 2, "b": 3}, &sum); err != nil || sum != 5 {
		t.Fatalf("a->b add = %d, %v; want 5", sum, err)
	}
	if err := b.Call(ctx, "add", map[string]int{"a": 40, "b": 2}, &sum); err != nil || sum != 42 {
		t.Fatalf("b->a add = %d, %v; want 42", sum, err)
	}
	var s string
	if err := a.Call(ctx, "echo", "line1\nline2", &s); err != nil || s != "line1\nline2" {
		t.Fatalf("echo = %q, %v", s, err)
	}
}

func TestErrors(t *testing.T) {
	a, _ := pipePair(t, nil, echo)
	ctx := context.Background()
	type test struct {
		method string
		params any
		code   int
	}
	for _, tc := range []test{
		{"nope", nil, CodeMethodNotFound},
		{"add", map[string]any{"a": "x"}, CodeInvalidParams},
		{"add", map[string]any{"a": 1.5}, CodeInvalidParams},
		{"fail", nil, CodeInternalError},
		{"panic", nil, CodeInternalError},
	} {
		err := a.Call(ctx, tc.method, tc.params, nil)
		var e *Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("Call(%s, %v) = %v, want code %d", tc.method, tc.params, err, tc.code)
		}
	}
	// The connection survives all of that.
	var sum int
	if err := a.Call(ctx, "add", map[string]int{"a": 1, "b": 1}, &sum); err != nil || sum != 2 {
		t.Fatalf("after errors: add = %d, %v", sum, err)
	}
}

func TestMalformedInput(t *testing.T) {
	p := newRawPeer(t, echo)
	type test struct {
		line string
		code float64
		id   any
	}
	for _, tc := range []test{
		{`{"jsonrpc":"2.0","id":1,"method":`, CodeParseError, nil},
		{`not json`, CodeParseError, nil},
		{`[{"jsonrpc":"2.0","id":1,"method":"echo"}]`, CodeInvalidRequest, nil},
		{`{"id":2,"method":"echo"}`, CodeInvalidRequest, float64(2)},
		{`{"jsonrpc":"1.0","id":"x","method":"echo"}`, CodeInvalidRequest, "x"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}`, CodeInvalidRequest, nil},
		{`{"jsonrpc":"2.0","id":3,"method":5}`, CodeInvalidRequest, float64(3)},
		{`42`, CodeInvalidRequest, nil},
		{`{"jsonrpc":"2.0","id":4}`, CodeInvalidRequest, float64(4)},
		{`{"jsonrpc":"2.0","id":5,"method":"nope"}`, CodeMethodNotFound, float64(5)},
		{`{"jsonrpc":"2.0","id":6,"method":"add","params":{"a":"1"}}`, CodeInvalidParams, float64(6)},
	} {
		p.send(t, tc.line)
		m := p.recv(t)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != tc.code || m["id"] != tc.id || m["jsonrpc"] != "2.0" {
			t.Errorf("%s\n got %v\nwant code %v, id %v", tc.line, m, tc.code, tc.id)
		}
	}
	// Blank lines are ignored; a good request still works.
	p.send(t, "")
	p.send(t, `{"jsonrpc":"2.0","id":"last","method":"add","params":{"a":1,"b":2}}`)
	if m := p.recv(t); m["id"] != "last" || m["result"] != float64(3) {
		t.Errorf("after malformed input: %v", m)
	}
}

func TestNotificationsInOrder(t *testing.T) {
	var (
		mu  sync.Mutex
		got []int
		all = make(chan struct{})
	)
	const n = 200
	h := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		var i int
		json.Unmarshal(params, &i)
		if i%17 == 0 {
			time.Sleep(time.Millisecond) // a slow handler must not reorder
		}
		mu.Lock()
		got = append(got, i)
		if len(got) == n {
			close(all)
		}
		mu.Unlock()
		return nil, nil
	}
	a, _ := pipePair(t, nil, h)
	for i := range n {
		if err := a.Notify(context.Background(), "note", i); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-all:
	case <-time.After(10 * time.Second):
		t.Fatal("notifications did not all arrive")
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("notification %d is %d; order lost: %v", i, v, got)
		}
	}
}

// TestConcurrentCalls runs many calls on one connection at once; the handler answers them
// out of order, and each caller must get its own answer.
func TestConcurrentCalls(t *testing.T) {
	h := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		var i int
		json.Unmarshal(params, &i)
		time.Sleep(time.Duration(50-i%50) * 100 * time.Microsecond)
		return i * 2, nil
	}
	a, _ := pipePair(t, nil, h)
	var wg sync.WaitGroup
	errs := make(chan error, 500)
	for i := range 500 {
		wg.Go(func() {
			var out int
			if err := a.Call(context.Background(), "double", i, &out); err != nil || out != 2*i {
				errs <- fmt.Errorf("double(%d) = %d, %v", i, out, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCallbackDuringCall checks that a handler may call back into the peer while the
// peer waits for it: requests are not served on the reader goroutine.
func TestCallbackDuringCall(t *testing.T) {
	var b *Conn
	hb := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		var s string
		if err := b.Call(ctx, "echo", "from b", &s); err != nil {
			return nil, err
		}
		return "b saw " + s, nil
	}
	var a *Conn
	a, b = pipePair(t, echo, hb)
	var s string
	if err := a.Call(context.Background(), "ask", nil, &s); err != nil || s != "b saw from b" {
		t.Fatalf("nested call = %q, %v", s, err)
	}
}

func TestLargeMessage(t *testing.T) {
	a, _ := pipePair(t, nil, echo)
	big := strings.Repeat("0123456789abcdef\n", 20<<20/17+1) // over 20 MiB, many lines
	var s string
	if err := a.Call(context.Background(), "echo", big, &s); err != nil {
		t.Fatal(err)
	}
	if s != big {
		t.Fatalf("echo of %d bytes came back as %d bytes", len(big), len(s))
	}
}

func TestCloseFailsPendingCalls(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	arrived := make(chan struct{}) // the call is pending: the other side handles it
	h := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		close(arrived)
		<-block
		return nil, nil
	}
	a, _ := pipePair(t, nil, h)
	errc := make(chan error)
	go func() { errc <- a.Call(context.Background(), "wait", nil, nil) }()
	<-arrived
	a.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("pending call after Close = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("pending call did not end on Close")
	}
	if err := a.Call(context.Background(), "wait", nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close = %v, want ErrClosed", err)
	}
}

func TestCallContext(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	h := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		if method == "wait" {
			<-block
		}
		return "ok", nil
	}
	a, _ := pipePair(t, nil, h)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := a.Call(ctx, "wait", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call past deadline = %v", err)
	}
	var s string
	if err := a.Call(context.Background(), "quick", nil, &s); err != nil || s != "ok" {
		t.Fatalf("call after a timed-out one = %q, %v", s, err)
	}
}

func TestPeerEOF(t *testing.T) {
	p := newRawPeer(t, echo)
	p.in.Close()
	select {
	case <-p.conn.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("connection did not end at EOF")
	}
	if err := p.conn.Wait(); err != nil {
		t.Fatalf("Wait after clean EOF = %v", err)
	}
}

// TestSyncNotifications checks that notifications sent before a response can be awaited
// once the call returns.
func TestSyncNotifications(t *testing.T) {
	const n = 50
	var (
		mu      sync.Mutex
		handled int
	)
	ha := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		time.Sleep(200 * time.Microsecond)
		mu.Lock()
		handled++
		mu.Unlock()
		return nil, nil
	}
	var b *Conn
	hb := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		for i := range n {
			b.Notify(ctx, "update", i)
		}
		return "done", nil
	}
	var a *Conn
	a, b = pipePair(t, ha, hb)
	if err := a.Call(context.Background(), "prompt", nil, nil); err != nil {
		t.Fatal(err)
	}
	a.SyncNotifications()
	mu.Lock()
	defer mu.Unlock()
	if handled != n {
		t.Fatalf("after SyncNotifications %d of %d notifications handled", handled, n)
	}
}

// TestHalfClose sends a request and closes the input at once: the answer still comes.
func TestHalfClose(t *testing.T) {
	block := make(chan struct{})
	h := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		<-block // still running when EOF arrives
		return "late but there", ctx.Err()
	}
	p := newRawPeer(t, h)
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"slow"}`)
	p.in.Close()
	<-p.conn.Done()
	close(block)
	if m := p.recv(t); m["result"] != "late but there" {
		t.Fatalf("response after the peer's EOF = %v", m)
	}
	if err := p.conn.Call(context.Background(), "x", nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after the peer's EOF = %v, want ErrClosed", err)
	}
}

// TestCloseWhileWriteBlocked checks that Close returns, and unblocks the writer, when a
// message is stuck in a write because the peer stopped reading.
func TestCloseWhileWriteBlocked(t *testing.T) {
	cr, tw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	tr, cw, err := os.Pipe() // nobody reads tr: the pipe fills up
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tw.Close(); cr.Close(); tr.Close() })
	c := NewConn(cr, cw, nil)
	notified := make(chan error, 1)
	go func() {
		// Far more than a pipe buffer: the write blocks.
		notified <- c.Notify(context.Background(), "big", map[string]string{"s": strings.Repeat("x", 1<<20)})
	}()
	time.Sleep(time.Second)
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs while a write is blocked")
	}
	select {
	case err := <-notified:
		if err == nil {
			t.Error("the blocked Notify reported success")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the blocked Notify never returned")
	}
}

// TestNoGoroutineLeak checks that a connection closed with requests, calls and
// notifications in flight leaves no goroutine behind once its streams are closed.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	ar, bw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	br, aw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	const calls = 20
	handling := make(chan struct{}, 3*calls) // a call or a notification is in a handler
	wait := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		handling <- struct{}{}
		<-ctx.Done() // a handler that only ends when the connection does
		return nil, ctx.Err()
	}
	a, b := NewConn(ar, aw, wait), NewConn(br, bw, wait)
	for range calls {
		go a.Call(context.Background(), "wait", nil, nil)
		go b.Call(context.Background(), "wait", nil, nil)
		a.Notify(context.Background(), "wait", nil)
	}
	// Every call is in its handler, and so is at least the first notification (the
	// others queue behind it): the connections close with all of them in flight.
	for range 2*calls + 1 {
		<-handling
	}
	a.Close()
	b.Close()
	ar.Close()
	br.Close()
	for _, c := range []*Conn{a, b} {
		done := make(chan struct{})
		go func() { c.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("Wait hangs after Close and the reader's close")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
