//go:build !js && !wasip1

package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// pipeClient is a minimal JSON-RPC client of a server served over pipes in this process:
// one line a message, answers handed to the caller waiting for their id.
type pipeClient struct {
	wmu sync.Mutex
	in  *io.PipeWriter

	mu      sync.Mutex
	pending map[string]chan string // by the id's JSON
	other   []string               // lines that answer no call of ours
	done    chan error             // the server's end
}

// servePipes serves srv over pipes with serve (ServeStdio, or srv.Run) and initializes a
// session. The server stops when the test ends.
func servePipes(t testing.TB, srv *Server, serve func(context.Context, *Server, *StdioTransport) error) *pipeClient {
	t.Helper()
	return servePipesWith(t, srv, serve, `{}`)
}

// servePipesWith is servePipes for a client with the given capabilities.
func servePipesWith(t testing.TB, srv *Server, serve func(context.Context, *Server, *StdioTransport) error, capabilities string) *pipeClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &pipeClient{in: inW, pending: map[string]chan string{}, done: make(chan error, 1)}
	go func() {
		c.done <- serve(context.Background(), srv, &StdioTransport{In: inR, Out: outW})
		outW.Close()
	}()
	go c.readLoop(outR)
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not end after its input did")
		}
	})
	c.call(t, "0", "initialize", `{"protocolVersion":"2025-06-18","capabilities":`+capabilities+`,"clientInfo":{"name":"t","version":"v0"}}`)
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func serveRun(ctx context.Context, srv *Server, t *StdioTransport) error { return srv.Run(ctx, t) }

func (c *pipeClient) readLoop(out io.Reader) {
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal([]byte(line), &msg)
		c.mu.Lock()
		ch := c.pending[string(msg.ID)]
		delete(c.pending, string(msg.ID))
		if ch == nil {
			c.other = append(c.other, line)
		}
		c.mu.Unlock()
		if ch != nil {
			ch <- strings.TrimSuffix(line, "\n")
		}
	}
}

// request waits for the nth request of the server with the method, and returns its id.
func (c *pipeClient) request(t testing.TB, method string, nth int) json.RawMessage {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		seen := 0
		c.mu.Lock()
		for _, line := range c.other {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal([]byte(line), &m) == nil && m.Method == method {
				if seen++; seen == nth {
					c.mu.Unlock()
					return m.ID
				}
			}
		}
		c.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("the server sent no %s request #%d", method, nth)
	return nil
}

func (c *pipeClient) send(t testing.TB, line string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		t.Error(err)
	}
}

// start sends a call and returns where its answer comes.
func (c *pipeClient) start(t testing.TB, id, method, params string) chan string {
	ch := make(chan string, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, params))
	return ch
}

// call sends a call and waits for its answer.
func (c *pipeClient) call(t testing.TB, id, method, params string) string {
	t.Helper()
	select {
	case line := <-c.start(t, id, method, params):
		return line
	case <-time.After(30 * time.Second):
		t.Fatalf("no answer to %s %s", method, params)
		return ""
	}
}

// stdioServer makes a server of two directories, the first with a small file, and
// returns it with a function that writes the directories' paths as DIR and OTHER.
func stdioServer(t testing.TB) (*Server, func(string) string) {
	t.Helper()
	dir, other := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "small.txt"), []byte(strings.Repeat("a line of a small file\n", 30)), 0o644); err != nil {
		t.Fatal(err)
	}
	var wss []*llmfs.Workspace
	for _, d := range []string{dir, other} {
		ws, err := host.Open(&llmfs.Options{Root: d})
		if err != nil {
			t.Fatal(err)
		}
		wss = append(wss, ws)
	}
	srv, err := New(wss[0], &Options{Roots: wss[1:]})
	if err != nil {
		t.Fatal(err)
	}
	return srv, strings.NewReplacer(dir, "DIR", other, "OTHER").Replace
}

// TestServeStdioAnswersAsRun checks that the calls ServeStdio runs itself answer byte for
// byte as those the go-sdk runs under srv.Run, and that those it leaves to the go-sdk
// (a _meta, an unknown tool, bad params) still answer as they did.
func TestServeStdioAnswersAsRun(t *testing.T) {
	calls := []string{
		`{"name":"file_read","arguments":{"path":"small.txt"}}`,
		`{"name":"file_read","arguments":{"path":"missing.txt"}}`,
		`{"name":"file_read","arguments":{"path":"/elsewhere/x"}}`,
		`{"name":"file_read","arguments":{"path":"small.txt","bogus":1}}`,
		`{"name":"file_read","arguments":{"path":"small.txt"},"_meta":{"progressToken":"p"}}`,
		`{"name":"directory_list","arguments":{"path":".","names_only":true}}`,
		`{"name":"file_read"}`,
		`{"name":"nope","arguments":{}}`,
		`{"name":7}`,
		`[1]`,
		`{"name":"file_read","arguments":null}`,
		`{"name":"file_read","arguments":"small.txt"}`,
		`{"name":"file_read","arguments":{"path":["small.txt"]}}`,
		`{"name":"file_read","_meta":null,"arguments":{"path":"small.txt"}}`,
		`{"name":"file_read","Name":"nope","arguments":{"path":"small.txt"}}`,
		`{"name":"file_read","arguments":{"path":"small.txt","path":"/elsewhere"}}`,
		`"file_read"`,
		`null`,
	}
	var answers [2][]string
	for i, serve := range []func(context.Context, *Server, *StdioTransport) error{serveRun, ServeStdio} {
		srv, anon := stdioServer(t)
		c := servePipes(t, srv, serve)
		// Cancellations that name nothing, or nothing readable, change nothing.
		for _, p := range []string{`{"requestId":{"a":1}}`, `5`, `{"requestId":99}`, `{}`} {
			c.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":`+p+`}`)
		}
		for j, p := range calls {
			line := c.call(t, fmt.Sprint(j+1), "tools/call", p)
			answers[i] = append(answers[i], anon(line))
		}
	}
	for j := range calls {
		if answers[0][j] != answers[1][j] {
			t.Errorf("%s:\nRun        %s\nServeStdio %s", calls[j], answers[0][j], answers[1][j])
		}
	}
}

// blockReads makes the server's file_read handler wait, for a path ending in "slow",
// until release is closed; running counts the handlers running, most the most at once.
func blockReads(t testing.TB, srv *Server, release chan struct{}, running, most *atomic.Int64) {
	s := srv.state
	if s == nil {
		t.Fatal("lookupServer: not found")
	}
	h := s.handlers["file_read"]
	s.handlers["file_read"] = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if strings.HasSuffix(string(req.Params.Arguments), `slow"}`) {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			defer running.Add(-1)
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return h(ctx, req)
	}
}

// TestServeStdioSlowCallDoesNotBlock checks that calls run side by side: a fast read sent
// after a read that cannot end until the fast one has been answered is answered (were
// the calls run one at a time, the slow one would wait forever for the fast one behind
// it), and the slow one then answers too.
func TestServeStdioSlowCallDoesNotBlock(t *testing.T) {
	srv, _ := stdioServer(t)
	release := make(chan struct{})
	var running, most atomic.Int64
	blockReads(t, srv, release, &running, &most)
	c := servePipes(t, srv, ServeStdio)
	slow := c.start(t, "1", "tools/call", `{"name":"file_read","arguments":{"path":"slow"}}`)
	fast := c.call(t, "2", "tools/call", `{"name":"file_read","arguments":{"path":"small.txt"}}`)
	if !strings.Contains(fast, "a line of a small file") {
		t.Fatalf("fast read: %s", fast)
	}
	select {
	case line := <-slow:
		t.Fatalf("the slow read answered before it was released: %s", line)
	default:
	}
	close(release)
	if line := <-slow; !strings.Contains(line, "FILE_NOT_FOUND") {
		t.Errorf("slow read: %s", line)
	}
}

// TestServeStdioBoundsCalls floods the server with calls that block: no more than
// MaxStdioCalls run at once (the transport stops reading instead of starting more), and
// every call answers once they are released.
func TestServeStdioBoundsCalls(t *testing.T) {
	srv, _ := stdioServer(t)
	release := make(chan struct{})
	var running, most atomic.Int64
	blockReads(t, srv, release, &running, &most)
	c := servePipes(t, srv, ServeStdio)
	const n = 4 * MaxStdioCalls
	sent := make(chan []chan string)
	go func() {
		var chs []chan string
		for i := range n {
			chs = append(chs, c.start(t, fmt.Sprint(i+1), "tools/call", `{"name":"file_read","arguments":{"path":"slow"}}`))
		}
		sent <- chs
	}()
	// Wait until the server holds as many calls as it runs at once: the pipe has no
	// buffer, so the client's writes then wait for the transport to read on.
	for running.Load() < MaxStdioCalls {
		time.Sleep(time.Millisecond)
	}
	select {
	case <-sent:
		t.Fatalf("all %d calls were read while %d were running", n, running.Load())
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	for _, ch := range <-sent {
		if line := <-ch; !strings.Contains(line, "FILE_NOT_FOUND") {
			t.Fatalf("answer: %s", line)
		}
	}
	if m := most.Load(); m > MaxStdioCalls {
		t.Errorf("%d calls ran at once, over the limit of %d", m, MaxStdioCalls)
	}
}

// TestServeStdioCancel checks that notifications/cancelled cancels a call the transport
// runs: the handler sees its context done and the call answers that it was cancelled.
func TestServeStdioCancel(t *testing.T) {
	srv, _ := stdioServer(t)
	release := make(chan struct{}) // never closed: only the cancellation ends the call
	var running, most atomic.Int64
	blockReads(t, srv, release, &running, &most)
	c := servePipes(t, srv, ServeStdio)
	slow := c.start(t, `"c-1"`, "tools/call", `{"name":"file_read","arguments":{"path":"slow"}}`)
	for running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c-1","reason":"test"}}`)
	if line := <-slow; !strings.Contains(line, `"isError":true`) {
		t.Errorf("cancelled read: %s", line)
	}
}

// BenchmarkStdioInFlight measures small reads with 16 in flight over pipes, as bench/mcp.sh
// does over a process's standard input and output: served by ServeStdio (the transport
// runs the calls) and by srv.Run (the go-sdk runs them), client in this process.
func BenchmarkStdioInFlight(b *testing.B) {
	for _, c := range []struct {
		name  string
		serve func(context.Context, *Server, *StdioTransport) error
	}{{"ServeStdio", ServeStdio}, {"Run", serveRun}} {
		b.Run(c.name, func(b *testing.B) {
			srv, _ := stdioServer(b)
			pc := servePipes(b, srv, c.serve)
			params := `{"name":"file_read","arguments":{"path":"small.txt"}}`
			var next atomic.Int64
			next.Store(1)
			b.ReportAllocs()
			b.SetParallelism(16) // per GOMAXPROCS: at least 16 calls in flight
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					line := <-pc.start(b, fmt.Sprint(next.Add(1)), "tools/call", params)
					if !strings.Contains(line, "a line of a small file") {
						b.Fatal(line)
					}
				}
			})
		})
	}
}

// TestServeStdioReadsWhileAskingRoots floods the server with calls while it waits for the
// client's roots: the transport must read on, past more calls than it runs at once, to
// the client's answer (were it to wait for a free worker, the workers waiting behind the
// roots would never be freed, and the sends below would never end); then every call is
// narrowed to the roots the client gave.
func TestServeStdioReadsWhileAskingRoots(t *testing.T) {
	srv, anon := stdioServer(t)
	s := srv.state
	first, other := s.roots[0].Root(), s.roots[1].Root()
	c := servePipesWith(t, srv, ServeStdio, `{"roots":{"listChanged":true}}`)
	firstCall := c.start(t, `"c0"`, "tools/call", `{"name":"file_read","arguments":{"path":"small.txt"}}`)
	rootsID := c.request(t, "roots/list", 1)
	const n = 4 * MaxStdioCalls
	sent := make(chan []chan string)
	go func() {
		var chs []chan string
		for i := range n {
			chs = append(chs, c.start(t, fmt.Sprintf(`"c%d"`, i+1), "tools/call", fmt.Sprintf(`{"name":"file_read","arguments":{"path":%q}}`, filepath.Join(other, "x"))))
		}
		sent <- chs
	}()
	var chs []chan string
	select {
	case chs = <-sent:
	case <-time.After(30 * time.Second):
		t.Fatal("the transport stopped reading while the server waited for the client's roots")
	}
	c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":"file://%s"}]}}`, rootsID, first))
	if line := <-firstCall; !strings.Contains(line, "a line of a small file") {
		t.Errorf("first call: %s", line)
	}
	for _, ch := range chs {
		if line := <-ch; !strings.Contains(line, "outside the client's roots") {
			t.Fatalf("a read outside the client's roots: %s", anon(line))
		}
	}
}

// TestServeStdioRootsChangedInOrder checks that a call read after
// notifications/roots/list_changed runs on the new roots: the server asks for them again
// before it, even though the go-sdk handles the notification after the transport has
// read on. A middleware holds the notification back a little, so that a call run on
// the old roots (and refused on them) would have the time to.
func TestServeStdioRootsChangedInOrder(t *testing.T) {
	srv, anon := stdioServer(t)
	// Not through srv.MCP(), which would turn ServeStdio's own calls off.
	srv.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/roots/list_changed" {
				time.Sleep(20 * time.Millisecond)
			}
			return next(ctx, method, req)
		}
	})
	s := srv.state
	first, other := s.roots[0].Root(), s.roots[1].Root()
	c := servePipesWith(t, srv, ServeStdio, `{"roots":{"listChanged":true}}`)
	answer := func(nth int, root string) {
		id := c.request(t, "roots/list", nth)
		c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":"file://%s"}]}}`, id, root))
	}
	call := c.start(t, `"c1"`, "tools/call", `{"name":"file_read","arguments":{"path":"small.txt"}}`)
	answer(1, first)
	if line := <-call; !strings.Contains(line, "a line of a small file") {
		t.Fatalf("read within the roots: %s", anon(line))
	}
	for i := range 6 {
		// The roots become the other directory: the read there that follows must wait
		// for them, and not be refused on the old ones.
		root := other
		if i%2 == 1 {
			root = first
		}
		c.send(t, `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
		call := c.start(t, fmt.Sprintf(`"r%d"`, i), "tools/call", fmt.Sprintf(`{"name":"file_read","arguments":{"path":%q}}`, filepath.Join(root, "x")))
		answer(i+2, root)
		if line := <-call; !strings.Contains(line, "FILE_NOT_FOUND") {
			t.Fatalf("round %d: a read within the new roots: %s", i, anon(line))
		}
	}
}
