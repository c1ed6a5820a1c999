//go:build !js && !wasip1

package mcpserver_test

//lint:file-ignore SA1019 the roots tests drive clients before 2026-07-28, which keep roots

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

// These tests run client and server in this process, over in-memory transports.

func openWS(t *testing.T, dir string, opts llmfs.Options) *llmfs.Workspace {
	t.Helper()
	opts.Root = dir
	ws, err := host.Open(&opts)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// connectInMemory serves srv to a client over in-memory transports.
func connectInMemory(t *testing.T, srv *mcpserver.Server, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if client == nil {
		client = newClient()
	}
	cs, err := client.Connect(ctx, ct, sessionOptions(client))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func TestNewRefuses(t *testing.T) {
	one, two := tempDir(t), tempDir(t)
	nested := filepath.Join(one, "nested")
	os.Mkdir(nested, 0o755)
	ws := openWS(t, one, llmfs.Options{})
	for _, c := range []struct {
		name string
		opts mcpserver.Options
		want string
	}{
		{"unknown dialect", mcpserver.Options{Dialect: "klingon"}, "unknown dialect"},
		{"rtc with two roots", mcpserver.Options{Dialect: tools.RTC, Roots: []*llmfs.Workspace{openWS(t, two, llmfs.Options{})}}, "one directory"},
		{"nested", mcpserver.Options{Roots: []*llmfs.Workspace{openWS(t, nested, llmfs.Options{})}}, "must not nest"},
		{"same twice", mcpserver.Options{Roots: []*llmfs.Workspace{openWS(t, one, llmfs.Options{})}}, "must not nest"},
		{"other mode", mcpserver.Options{Roots: []*llmfs.Workspace{openWS(t, two, llmfs.Options{Mode: llmfs.ReadOnly})}}, "other rules"},
	} {
		_, err := mcpserver.New(ws, &c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one about %q", c.name, err, c.want)
		}
	}
}

// TestSessionProtocol: a go-sdk client gets the revision it asks for, 2026-07-28 by
// default.
func TestSessionProtocol(t *testing.T) {
	srv, err := mcpserver.New(openWS(t, tempDir(t), llmfs.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connectInMemory(t, srv, nil)
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("protocol version %s, want 2026-07-28", v)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "Relative paths") {
		t.Errorf("instructions: %q", cs.InitializeResult().Instructions)
	}
}

// TestRTCClientRoots: in the rtc dialect, client roots narrow the virtual tree too; a
// listing of the default "/" is outside a root below it.
func TestRTCClientRoots(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "sub", "in.txt"), "in\n")
	writeFile(t, filepath.Join(dir, "out.txt"), "out\n")
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{Dialect: tools.RTC})
	if err != nil {
		t.Fatal(err)
	}
	client := oldClient()
	client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(dir, "sub"))})
	cs := connectInMemory(t, srv, client)
	ok(t, cs, "read", `{"path":"/sub/in.txt"}`)
	ok(t, cs, "ls", `{"path":"/sub"}`)
	fails(t, cs, "read", `{"path":"/out.txt"}`, "INVALID_PATH")
	fails(t, cs, "ls", `{}`, "INVALID_PATH")
	fails(t, cs, "read", `{"path":"/sub/../out.txt"}`, "INVALID_PATH")
}

// TestRelaxedIgnoresClientRoots: a relaxed server has no boundary to narrow.
func TestRelaxedIgnoresClientRoots(t *testing.T) {
	dir, other := tempDir(t), tempDir(t)
	writeFile(t, filepath.Join(other, "x.txt"), "x\n")
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{Relaxed: true}), nil)
	if err != nil {
		t.Fatal(err)
	}
	client := oldClient()
	client.AddRoots(&mcp.Root{URI: fileURI(dir)})
	cs := connectInMemory(t, srv, client)
	ok(t, cs, "file_read", `{"path":"`+other+`/x.txt"}`)
}

// TestNonFileRootsIgnored: roots that are not file:// URIs narrow nothing.
func TestNonFileRootsIgnored(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	client := oldClient()
	client.AddRoots(&mcp.Root{URI: "https://example.com/repo"})
	cs := connectInMemory(t, srv, client)
	ok(t, cs, "file_read", `{"path":"a.txt"}`)
}

// TestModeHidesTools: a read-only server offers no writing tool, and refuses a call of one
// as an unknown tool (the go-sdk answers before llmfs sees it).
// Issue 13.11: a call of a tool the read-only mode hides got the go-sdk's -32602 "unknown
// tool", not the PERMISSION_DENIED result the README promises, naming the tools there are.
func TestReadOnlyHiddenToolDenied(t *testing.T) {
	for _, d := range []tools.Dialect{tools.Agentool, tools.RTC} {
		srv, err := mcpserver.New(openWS(t, tempDir(t), llmfs.Options{Mode: llmfs.ReadOnly}), &mcpserver.Options{Dialect: d})
		if err != nil {
			t.Fatal(err)
		}
		cs := connectInMemory(t, srv, nil)
		name := map[tools.Dialect]string{tools.Agentool: "file_write", tools.RTC: "write"}[d]
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{"path": "/a", "content": "b"}})
		if err != nil {
			t.Fatalf("%s on a read-only server: %v", name, err)
		}
		txt := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.HasPrefix(txt, "PERMISSION_DENIED: ") || !strings.Contains(txt, "read-only") ||
			!strings.Contains(txt, map[tools.Dialect]string{tools.Agentool: "file_read", tools.RTC: "read"}[d]) {
			t.Errorf("%s on a read-only server: %v %q", name, res.IsError, txt)
		}
		// A tool that does not exist at all is still the protocol's error.
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil {
			t.Error("an unknown tool was accepted")
		}
		lt, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range lt.Tools {
			if tl.Name == name {
				t.Errorf("%s is listed on a read-only server", name)
			}
		}
	}
}

// TestOptionsRequireRead turns read-before-edit on for sessions of a workspace that does not
// require it, each session with its own tracker.
func TestOptionsRequireRead(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "f.txt"), "one\n")
	ws := openWS(t, dir, llmfs.Options{})
	srv, err := mcpserver.New(ws, &mcpserver.Options{RequireRead: new(true)})
	if err != nil {
		t.Fatal(err)
	}
	a, b := connectInMemory(t, srv, nil), connectInMemory(t, srv, nil)
	edit := `{"path":"f.txt","old_text":"one","new_text":"two"}`
	fails(t, a, "file_edit", edit, "FILE_NOT_READ")
	ok(t, a, "file_read", `{"path":"f.txt"}`)
	fails(t, b, "file_edit", edit, "FILE_NOT_READ")
	ok(t, a, "file_edit", edit)
	// The workspace itself still does not require reads.
	if _, err := ws.Edit(context.Background(), "f.txt", "two", "three", false); err != nil {
		t.Errorf("direct edit: %v", err)
	}
}

// rawClient speaks JSON-RPC to a server by hand, to play a client that misbehaves.
type rawClient struct {
	t    *testing.T
	conn mcp.Connection
}

func newRawClient(t *testing.T, srv *mcpserver.Server) *rawClient {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); ss.Wait() })
	c := &rawClient{t, conn}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"raw","version":"0"}}}`)
	c.read()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *rawClient) send(msg string) {
	c.t.Helper()
	m, err := jsonrpc.DecodeMessage([]byte(msg))
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.conn.Write(context.Background(), m); err != nil {
		c.t.Fatal(err)
	}
}

func (c *rawClient) read() string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := c.conn.Read(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	b, _ := jsonrpc.EncodeMessage(m)
	return string(b)
}

// TestRootsUnanswered: a client that announces roots but never lists them gets no narrowing
// after the timeout (as with the reference server), and is not asked again at every call;
// a call cancelled while the server waits does not pass unchecked, and the next call asks
// again.
func TestRootsUnanswered(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{RootsTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := newRawClient(t, srv)
	readCall := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"a.txt"}}}`, id)
	}

	// Cancelled while the server waits for the roots.
	c.send(readCall(2))
	if m := c.read(); !strings.Contains(m, `"roots/list"`) {
		t.Fatalf("want a roots/list request, got %s", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)

	// The next call asks again; unanswered, it goes on without narrowing.
	c.send(readCall(3))
	asked := false
	for {
		m := c.read()
		if strings.Contains(m, `"method":"roots/list"`) && strings.Contains(m, `"id":`) {
			asked = true
		}
		if strings.Contains(m, `"method":`) || strings.Contains(m, `"id":2,`) {
			continue // requests and notifications from the server; a late answer to 2
		}
		if !strings.Contains(m, `"id":3`) || !strings.Contains(m, `"total_lines":1`) || strings.Contains(m, `"isError":true`) {
			t.Fatalf("want the read's result, got %s", m)
		}
		break
	}
	if !asked {
		t.Error("the call after a cancelled one did not ask for the roots again")
	}
	// And the call after that is not held up again.
	c.send(readCall(4))
	for {
		m := c.read()
		if strings.Contains(m, `"method":"roots/list"`) && strings.Contains(m, `"id":`) {
			t.Fatalf("asked for the roots again after an unanswered roots/list: %s", m)
		}
		if strings.Contains(m, `"id":4`) {
			break
		}
	}
}

// TestNoArgumentsNarrowed: a call with no "arguments" member at all is checked against
// the client's roots like one with {}: it names the default directory.
func TestNoArgumentsNarrowed(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "sub", "a.txt"), "a\n")
	writeFile(t, filepath.Join(dir, "secret.txt"), "s\n")
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{Dialect: tools.RTC})
	if err != nil {
		t.Fatal(err)
	}
	c := newRawClient(t, srv)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ls"}}`)
	for {
		m := c.read()
		if strings.Contains(m, `"method":"roots/list"`) {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal([]byte(m), &req)
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":%q}]}}`, req.ID, fileURI(filepath.Join(dir, "sub"))))
			continue
		}
		if !strings.Contains(m, `"id":2`) {
			continue
		}
		if !strings.Contains(m, `"isError":true`) || !strings.Contains(m, "INVALID_PATH") {
			t.Fatalf("ls without arguments, roots narrowed to /sub: %s", m)
		}
		break
	}
}
