//go:build !js && !wasip1

package mcpserver_test

//lint:file-ignore SA1019 the roots tests drive clients before 2026-07-28, which keep roots

// End-to-end tests: they build the real llmfs binary, start it as `llmfs mcp` (stdio) or
// `llmfs serve` (streamable HTTP), and drive it with the go-sdk client.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs/internal/testcache"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	restore := testcache.Isolate()
	code := m.Run()
	restore()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// llmfsBinary builds cmd/llmfs once per test run.
func llmfsBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "llmfs-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "llmfs")
		// -buildvcs=auto: record the revision where there is one, whatever GOFLAGS says.
		out, err := exec.Command("go", "build", "-buildvcs=auto", "-o", binPath, "github.com/llmfs/llmfs/cmd/llmfs").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// tempDir returns a fresh directory with its symbolic links resolved, as llmfs shows it.
func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stdioSession starts `llmfs mcp args...` and connects a client to it.
func stdioSession(t *testing.T, client *mcp.Client, args ...string) *mcp.ClientSession {
	t.Helper()
	bin := llmfsBinary(t) // before the deadline: the first call builds it
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Stderr = &testLog{t: t}
	if client == nil {
		client = newClient()
	}
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, sessionOptions(client))
	if err != nil {
		t.Fatalf("connecting to llmfs mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "llmfs-test", Version: "v0"}, nil)
}

// oldClient is a client speaking 2025-11-25, the last revision with roots.
func oldClient() *mcp.Client { return clientAt("2025-11-25") }

// clientVersions holds the protocol version each client made by clientAt connects with.
var clientVersions sync.Map // *mcp.Client -> string

func clientAt(version string) *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: "llmfs-test-" + version, Version: "v0"}, nil)
	clientVersions.Store(c, version)
	return c
}

// sessionOptions asks for the client's protocol version, if clientAt set one.
func sessionOptions(c *mcp.Client) *mcp.ClientSessionOptions {
	if v, ok := clientVersions.Load(c); ok {
		return &mcp.ClientSessionOptions{ProtocolVersion: v.(string)}
	}
	return nil
}

// testLog passes a child's standard error to the test log.
type testLog struct {
	t  *testing.T
	mu sync.Mutex
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for line := range strings.Lines(string(p)) {
		l.t.Log("llmfs: " + strings.TrimRight(line, "\n"))
	}
	return len(p), nil
}

// httpServer is a running `llmfs serve`.
type httpServer struct {
	url   string // http://127.0.0.1:PORT/mcp
	token string
	cmd   *exec.Cmd
	done  chan error
}

// startServe starts `llmfs serve` on a free loopback port with a known token.
func startServe(t *testing.T, args ...string) *httpServer {
	t.Helper()
	const token = "test-token-0123456789"
	cmd := exec.Command(llmfsBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0", "--token", token}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &httpServer{token: token, cmd: cmd, done: make(chan error, 1)}
	urls := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`serving MCP at (http://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
			if os.Getenv("LLMFS_TEST_LOG") != "" {
				fmt.Fprintln(os.Stderr, "serve:", sc.Text())
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case s.url = <-urls:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("llmfs serve did not start")
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
		}
	})
	return s
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func (s *httpServer) connect(t *testing.T, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if client == nil {
		client = newClient()
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   s.url,
		HTTPClient: &http.Client{Transport: bearer{s.token, http.DefaultTransport}},
	}, sessionOptions(client))
	if err != nil {
		t.Fatalf("connecting to llmfs serve: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool with raw JSON arguments, sent as they are written.
func call(t *testing.T, cs *mcp.ClientSession, name, args string) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: protocol error: %v", name, args, err)
	}
	return res
}

// ok calls a tool that must succeed and returns its structured content as a map.
func ok(t *testing.T, cs *mcp.ClientSession, name, args string) map[string]any {
	t.Helper()
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s %s: %s", name, args, text(res))
	}
	sc := structured(t, res)
	checkOutput(t, cs, name, sc)
	if name == "read" {
		// The rtc read's text is its numbered lines, then a note.
		if content, _ := sc["content"].(string); !strings.HasPrefix(text(res), content) {
			t.Errorf("read: text %q does not start with the content %q", text(res), content)
		}
		return sc
	}
	if txt := text(res); !strings.HasPrefix(txt, "{") {
		// What the vendor's own tool prints (tools/vendortext.go); the JSON is structured.
		if strings.TrimSpace(txt) == "" {
			t.Errorf("%s: empty text", name)
		}
		return sc
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text(res)), &m); err != nil {
		t.Fatalf("%s: text is not the JSON result: %v", name, err)
	}
	if b1, b2 := mustJSON(m), mustJSON(sc); b1 != b2 {
		t.Errorf("%s: text %s and structured content %s differ", name, b1, b2)
	}
	return sc
}

// fails calls a tool that must fail with code and returns the message.
func fails(t *testing.T, cs *mcp.ClientSession, name, args, code string) string {
	t.Helper()
	res := call(t, cs, name, args)
	if !res.IsError {
		t.Fatalf("%s %s: succeeded (%s), want %s", name, args, text(res), code)
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: an error has structured content %v; it must not (the outputSchema is the success's)", name, res.StructuredContent)
	}
	var sc map[string]any
	if err := json.Unmarshal([]byte(mustJSON(res.Meta[mcpserver.ErrorMetaKey])), &sc); err != nil || sc == nil {
		t.Fatalf("%s %s: _meta %v holds no error object", name, args, res.Meta)
	}
	if sc["code"] != code {
		t.Fatalf("%s %s: error %v, want code %s", name, args, sc, code)
	}
	msg, _ := sc["message"].(string)
	if len(sc) != 2 || msg == "" {
		t.Errorf("%s: error %v, want exactly {code, message}", name, sc)
	}
	if want := code + ": " + msg; text(res) != want {
		t.Errorf("%s: text %q, want %q", name, text(res), want)
	}
	return msg
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) != 1 {
		return fmt.Sprintf("(%d content blocks)", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return fmt.Sprintf("(content %T)", res.Content[0])
	}
	return tc.Text
}

func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(mustJSON(res.StructuredContent)), &m); err != nil || m == nil {
		t.Fatalf("structured content %v is not an object", res.StructuredContent)
	}
	return m
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestStdioListTools(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"directory_create", "directory_list", "file_copy", "file_delete", "file_edit", "file_find", "file_grep", "file_move", "file_read", "file_write", "patch"}},
		{[]string{"--mode", "read-only"}, []string{"directory_list", "file_find", "file_grep", "file_read"}},
		{[]string{"--dialect", "rtc"}, []string{"edit", "find", "grep", "ls", "patch", "read", "write"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			dir := tempDir(t)
			cs := stdioSession(t, nil, append([]string{"--root", dir}, c.args...)...)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			dialect := tools.Agentool
			if slices.Contains(c.args, "rtc") {
				dialect = tools.RTC
			}
			defs, _ := tools.Definitions(dialect, llmfs.Full)
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				a := tool.Annotations
				if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil {
					t.Fatalf("%s: hints not all set: %+v", tool.Name, a)
				}
				if *a.OpenWorldHint {
					t.Errorf("%s: openWorldHint true", tool.Name)
				}
				i := slices.IndexFunc(defs, func(d tools.Definition) bool { return d.Name == tool.Name })
				d := defs[i]
				if a.ReadOnlyHint != d.ReadOnly || *a.DestructiveHint != d.Destructive || a.IdempotentHint != d.Idempotent {
					t.Errorf("%s: hints %+v, want %+v", tool.Name, a, d)
				}
				if tool.Description != d.Description {
					t.Errorf("%s: description differs from tools.Definitions", tool.Name)
				}
				var want, got any
				json.Unmarshal(d.InputSchema, &want)
				json.Unmarshal([]byte(mustJSON(tool.InputSchema)), &got)
				if mustJSON(want) != mustJSON(got) {
					t.Errorf("%s: schema %s, want %s", tool.Name, mustJSON(got), d.InputSchema)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, c.want) {
				t.Errorf("tools %v, want %v", names, c.want)
			}
		})
	}
}

// exerciseAgentool calls every agentool tool and checks its result and error shapes.
func exerciseAgentool(t *testing.T, cs *mcp.ClientSession, dir string) {
	r := ok(t, cs, "file_write", `{"path":"a.txt","content":"one\ntwo\n"}`)
	if r["path"] != dir+"/a.txt" {
		t.Errorf("file_write path %v", r["path"])
	}
	r = ok(t, cs, "file_read", `{"path":"a.txt"}`)
	if r["content"] != "one\ntwo\n" || r["total_lines"] != 2.0 {
		t.Errorf("file_read %v", r)
	}
	r = ok(t, cs, "file_read", `{"path":"`+dir+`/a.txt","offset":2,"limit":1}`)
	if r["content"] != "two\n" {
		t.Errorf("file_read offset 2: %v", r)
	}
	r = ok(t, cs, "file_edit", `{"path":"a.txt","old_text":"two","new_text":"2"}`)
	if r["replacements"] != 1.0 || !strings.Contains(r["diff"].(string), "+2") {
		t.Errorf("file_edit %v", r)
	}
	ok(t, cs, "directory_create", `{"path":"sub/deeper"}`)
	ok(t, cs, "file_copy", `{"source":"a.txt","destination":"sub/b.txt"}`)
	ok(t, cs, "file_move", `{"source":"sub/b.txt","destination":"sub/deeper/c.txt"}`)
	r = ok(t, cs, "directory_list", `{"path":"sub"}`)
	if got := mustJSON(r["entries"]); got != `[{"name":"deeper","size":0,"type":"directory"}]` {
		t.Errorf("directory_list %s", got)
	}
	r = ok(t, cs, "file_find", `{"pattern":"**/c.txt"}`)
	if got := mustJSON(r["files"]); got != `["sub/deeper/c.txt"]` {
		t.Errorf("file_find %s", got)
	}
	r = ok(t, cs, "file_grep", `{"pattern":"^2$","output_mode":"count"}`)
	if r["output"] != "a.txt:1\nsub/deeper/c.txt:1\n" {
		t.Errorf("file_grep %v", r)
	}
	fails(t, cs, "file_grep", `{"pattern":"("}`, "INVALID_ARGUMENT")
	ok(t, cs, "file_delete", `{"path":"sub/deeper/c.txt"}`)
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "one\n2\n" {
		t.Errorf("a.txt on disk: %q %v", b, err)
	}

	fails(t, cs, "file_read", `{"path":"missing.txt"}`, "FILE_NOT_FOUND")
	fails(t, cs, "file_read", `{"path":"/etc/passwd"}`, "INVALID_PATH")
	fails(t, cs, "file_edit", `{"path":"a.txt","old_text":"zzz","new_text":"y"}`, "PATTERN_NOT_FOUND")
	fails(t, cs, "file_write", `{"path":"a.txt","content":"x","mode":"create"}`, "FILE_ALREADY_EXISTS")
	fails(t, cs, "file_delete", `{"path":"sub"}`, "INVALID_PATH")
}

func TestStdioCallEachTool(t *testing.T) {
	dir := tempDir(t)
	exerciseAgentool(t, stdioSession(t, nil, "--root", dir), dir)
}

func TestHTTPCallEachTool(t *testing.T) {
	dir := tempDir(t)
	s := startServe(t, "--root", dir)
	exerciseAgentool(t, s.connect(t, nil), dir)
}

// TestStrictArguments checks that MCP refuses exactly what a direct call refuses, with the
// same code and message, and changes nothing.
func TestStrictArguments(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "one\ntwo\n")
	cs := stdioSession(t, nil, "--root", dir)
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := tools.New(ws, tools.Agentool)
	for _, c := range []struct{ name, args string }{
		{"file_read", `{"path":"a.txt","offset":1.0}`},
		{"file_read", `{"path":"a.txt","offset":"1"}`},
		{"file_read", `{"path":"a.txt","limit":1.5}`},
		{"file_read", `{"path":"a.txt","offset":0}`},
		{"file_read", `{"path":"a.txt","bogus":true}`},
		{"file_read", `{"path":"a.txt","path":"a.txt"}`},
		{"file_read", `{}`},
		{"file_write", `{"path":"b.txt","content":"x","mode":"bad"}`},
		{"file_edit", `{"path":"a.txt","old_text":"one","new_text":"1","edits":[{"old_text":"two","new_text":"2"}]}`},
	} {
		msg := fails(t, cs, c.name, c.args, "INVALID_ARGUMENT")
		_, err := tb.Call(context.Background(), c.name, json.RawMessage(c.args))
		if want := tools.ErrorOf(err); want.Code != "INVALID_ARGUMENT" || want.Message != msg {
			t.Errorf("%s %s: MCP says %q, a direct call %+v", c.name, c.args, msg, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\ntwo\n" {
		t.Errorf("a.txt changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("b.txt was written")
	}
}

// TestReadBeforeEditPerSession opens two HTTP sessions on one rtc server: a read in one
// session does not let the other edit.
func TestReadBeforeEditPerSession(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "f.txt"), "alpha\nbeta\n")
	s := startServe(t, "--root", dir, "--dialect", "rtc")
	a, b := s.connect(t, nil), s.connect(t, nil)
	edit := `{"path":"/f.txt","old_string":"beta","new_string":"BETA"}`
	fails(t, a, "edit", edit, "FILE_NOT_READ")
	r := ok(t, a, "read", `{"path":"/f.txt"}`)
	if !strings.Contains(r["content"].(string), "     2\tbeta") {
		t.Errorf("rtc read: %v", r)
	}
	fails(t, b, "edit", edit, "FILE_NOT_READ")
	ok(t, a, "edit", edit)
	// b reads now, then a's next edit must see the change b did not make... and b's read
	// lets b edit.
	ok(t, b, "read", `{"path":"/f.txt"}`)
	ok(t, b, "edit", `{"path":"/f.txt","old_string":"alpha","new_string":"ALPHA"}`)
	fails(t, a, "edit", `{"path":"/f.txt","old_string":"BETA","new_string":"beta"}`, "FILE_CHANGED")
	if got, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(got) != "ALPHA\nBETA\n" {
		t.Errorf("f.txt: %q", got)
	}
}

// TestRequireReadFlag checks the rtc default can be turned off, and agentool's turned on.
func TestRequireReadFlag(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "f.txt"), "x\n")
	off := stdioSession(t, nil, "--root", dir, "--dialect", "rtc", "--require-read=false")
	ok(t, off, "edit", `{"path":"/f.txt","old_string":"x","new_string":"y"}`)
	on := stdioSession(t, nil, "--root", dir, "--require-read")
	fails(t, on, "file_write", `{"path":"f.txt","content":"z"}`, "FILE_NOT_READ")
}

func rawPost(t *testing.T, s *httpServer, header http.Header, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", s.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	if h := header.Get("Host"); h != "" {
		req.Host = h
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

func TestHTTPRefusals(t *testing.T) {
	dir := tempDir(t)
	s := startServe(t, "--root", dir, "--max-body", "4096", "--allow-host", "trusted.example")
	auth := "Bearer " + s.token
	for _, c := range []struct {
		name   string
		header http.Header
		body   string
		want   int
	}{
		{"no token", http.Header{}, initBody, 401},
		{"wrong token", http.Header{"Authorization": {"Bearer nope"}}, initBody, 401},
		{"not bearer", http.Header{"Authorization": {"Basic " + s.token}}, initBody, 401},
		{"foreign origin", http.Header{"Authorization": {auth}, "Origin": {"https://evil.example"}}, initBody, 403},
		{"rebound host", http.Header{"Authorization": {auth}, "Host": {"evil.example:80"}}, initBody, 403},
		{"body too large", http.Header{"Authorization": {auth}}, initBody[:len(initBody)-1] + `,"pad":"` + strings.Repeat("x", 8000) + `"}`, 413},
		{"same origin", http.Header{"Authorization": {auth}, "Origin": {"http://127.0.0.1"}}, initBody, 200},
		{"allowed origin", http.Header{"Authorization": {auth}, "Origin": {"https://trusted.example"}}, initBody, 200},
		{"look-alike origin", http.Header{"Authorization": {auth}, "Origin": {"https://trusted.example.evil.example"}}, initBody, 403},
		{"null origin", http.Header{"Authorization": {auth}, "Origin": {"null"}}, initBody, 403},
		// Issue 31.11: a port that is not a number does not make the host a loopback one.
		{"port look-alike origin", http.Header{"Authorization": {auth}, "Origin": {"http://127.0.0.1:80.evil.example"}}, initBody, 403},
		{"port look-alike host", http.Header{"Authorization": {auth}, "Host": {"127.0.0.1:80.evil.example"}}, initBody, 403},
		{"origin with a path", http.Header{"Authorization": {auth}, "Origin": {"http://127.0.0.1/x"}}, initBody, 403},
		{"good", http.Header{"Authorization": {auth}}, initBody, 200},
	} {
		resp := rawPost(t, s, c.header, c.body)
		if resp.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.want)
		}
		if c.want == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: no WWW-Authenticate: Bearer", c.name)
		}
	}

	// The go-sdk client with a wrong token cannot connect.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := newClient().Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   s.url,
		HTTPClient: &http.Client{Transport: bearer{"wrong", http.DefaultTransport}},
	}, nil)
	if err == nil {
		t.Error("connected with a wrong token")
	}
}

func TestServeGracefulShutdown(t *testing.T) {
	dir := tempDir(t)
	s := startServe(t, "--root", dir)
	cs := s.connect(t, nil)
	ok(t, cs, "directory_list", `{"path":"."}`)
	start := time.Now()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("llmfs serve exited with %v after SIGTERM", err)
		}
		s.done <- err // for the cleanup
	case <-time.After(12 * time.Second):
		t.Fatal("llmfs serve did not stop within 12s of SIGTERM")
	}
	t.Logf("stopped in %v with a session open", time.Since(start))
}

func TestSeveralRoots(t *testing.T) {
	one, two, outside := tempDir(t), tempDir(t), tempDir(t)
	writeFile(t, filepath.Join(one, "a.txt"), "in one\n")
	writeFile(t, filepath.Join(two, "b.txt"), "in two\n")
	writeFile(t, filepath.Join(outside, "c.txt"), "outside\n")
	cs := stdioSession(t, nil, "--root", one, "--root", two)
	if r := ok(t, cs, "file_read", `{"path":"a.txt"}`); r["content"] != "in one\n" {
		t.Errorf("relative path: %v", r)
	}
	if r := ok(t, cs, "file_read", `{"path":"`+two+`/b.txt"}`); r["content"] != "in two\n" {
		t.Errorf("second root: %v", r)
	}
	ok(t, cs, "file_copy", `{"source":"`+two+`/b.txt","destination":"`+two+`/b2.txt"}`)
	if r := ok(t, cs, "directory_list", `{"path":"`+two+`"}`); len(r["entries"].([]any)) != 2 {
		t.Errorf("listing the second root: %v", r)
	}
	fails(t, cs, "file_read", `{"path":"b.txt"}`, "FILE_NOT_FOUND") // relative: the first root
	msg := fails(t, cs, "file_read", `{"path":"`+outside+`/c.txt"}`, "INVALID_PATH")
	if !strings.Contains(msg, one) || !strings.Contains(msg, two) {
		t.Errorf("message does not name the served directories: %s", msg)
	}
	fails(t, cs, "file_move", `{"source":"a.txt","destination":"`+two+`/a.txt"}`, "INVALID_ARGUMENT")
	if _, err := os.Stat(filepath.Join(one, "a.txt")); err != nil {
		t.Error("a.txt moved")
	}

	// Nested roots are refused at start.
	nested := filepath.Join(one, "nested")
	os.Mkdir(nested, 0o755)
	cmd := exec.Command(llmfsBinary(t), "mcp", "--root", one, "--root", nested)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "must not nest") {
		t.Errorf("nested roots: %v %s", err, out)
	}
}

func fileURI(dir string) string { return (&url.URL{Scheme: "file", Path: dir}).String() }

func TestClientRootsNarrow(t *testing.T) {
	t.Run("stdio", func(t *testing.T) {
		testClientRootsNarrow(t, func(dir string, client *mcp.Client) *mcp.ClientSession {
			return stdioSession(t, client, "--root", dir)
		})
	})
	t.Run("http", func(t *testing.T) {
		testClientRootsNarrow(t, func(dir string, client *mcp.Client) *mcp.ClientSession {
			return startServe(t, "--root", dir).connect(t, client)
		})
	})
}

func testClientRootsNarrow(t *testing.T, connect func(dir string, client *mcp.Client) *mcp.ClientSession) {
	dir, outside := tempDir(t), tempDir(t)
	writeFile(t, filepath.Join(dir, "sub", "in.txt"), "in\n")
	writeFile(t, filepath.Join(dir, "other", "no.txt"), "no\n")
	writeFile(t, filepath.Join(outside, "x.txt"), "x\n")
	client := oldClient()
	client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(dir, "sub"))}, &mcp.Root{URI: fileURI(outside)})
	cs := connect(dir, client)

	ok(t, cs, "file_read", `{"path":"sub/in.txt"}`)
	fails(t, cs, "file_read", `{"path":"other/no.txt"}`, "INVALID_PATH")
	fails(t, cs, "directory_list", `{"path":"."}`, "INVALID_PATH")
	// A pattern cannot climb out of the directory searched.
	fails(t, cs, "file_find", `{"path":"sub","pattern":"../other/*"}`, "INVALID_ARGUMENT")
	// A client root outside the served directory does not widen it.
	fails(t, cs, "file_read", `{"path":"`+outside+`/x.txt"}`, "INVALID_PATH")

	// roots/list_changed: the server asks again.
	client.RemoveRoots(fileURI(filepath.Join(dir, "sub")))
	client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(dir, "other"))})
	deadline := time.Now().Add(5 * time.Second)
	for {
		res := call(t, cs, "file_read", `{"path":"other/no.txt"}`)
		if !res.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after roots/list_changed: %s", text(res))
		}
		time.Sleep(50 * time.Millisecond)
	}
	fails(t, cs, "file_read", `{"path":"sub/in.txt"}`, "INVALID_PATH")

	// Roots that share nothing with the served directory allow nothing.
	client.RemoveRoots(fileURI(filepath.Join(dir, "other")))
	deadline = time.Now().Add(5 * time.Second)
	for {
		res := call(t, cs, "file_read", `{"path":"other/no.txt"}`)
		if res.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("roots outside the directory still allow it")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestNoClientRoots: a client with the roots capability but no roots leaves the directory
// whole, as the reference server does.
func TestNoClientRoots(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	cs := stdioSession(t, nil, "--root", dir)
	ok(t, cs, "file_read", `{"path":"a.txt"}`)
}

// TestWorkspaceFlags: llmfs mcp takes the workspace flags and the configuration file of its
// first root, like every other command.
func TestWorkspaceFlags(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, ".llmfs.json"), `{"require_read": true}`)
	writeFile(t, filepath.Join(dir, "f.txt"), "x\n")
	writeFile(t, filepath.Join(dir, "secret.txt"), "s\n")
	cs := stdioSession(t, nil, "--root", dir, "--deny", "secret.txt", "--mode", "read-write")
	fails(t, cs, "file_write", `{"path":"f.txt","content":"y"}`, "FILE_NOT_READ")
	if res := call(t, cs, "file_read", `{"path":"secret.txt"}`); !res.IsError {
		t.Errorf("a denied file was read: %s", text(res))
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "file_delete" {
			t.Error("file_delete offered in read-write mode")
		}
	}

	// The configuration overrides the rtc dialect's default too.
	other := tempDir(t)
	writeFile(t, filepath.Join(other, ".llmfs.json"), `{"require_read": false}`)
	writeFile(t, filepath.Join(other, "f.txt"), "x\n")
	rtc := stdioSession(t, nil, "--root", other, "--dialect", "rtc")
	ok(t, rtc, "edit", `{"path":"/f.txt","old_string":"x","new_string":"y"}`)
}

// TestServeWeb checks that `llmfs serve --web` serves the browser demo page at / beside
// the MCP endpoint, and that the endpoint still wants its token.
func TestServeWeb(t *testing.T) {
	s := startServe(t, "--root", tempDir(t), "--web")
	base := strings.TrimSuffix(s.url, "/mcp")
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "llmfs") {
		t.Fatalf("GET / = %d %.80q, want the demo page", resp.StatusCode, page)
	}
	resp, err = http.Post(s.url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST /mcp without a token = %d, want 401", resp.StatusCode)
	}
}

// Issue 13.2: with two roots that both hold docs/notes.md, file_find in the second returned
// docs/notes.md, which the next file_read or file_edit resolved against the first. Every
// path a tool returns must lead back to the same file: results in the second root are
// absolute, results in the first relative to it.
func TestSeveralRootsResultsLeadBack(t *testing.T) {
	one, two := tempDir(t), tempDir(t)
	writeFile(t, filepath.Join(one, "docs", "notes.md"), "notes of one\n")
	writeFile(t, filepath.Join(two, "docs", "notes.md"), "notes of two\n")
	cs := stdioSession(t, nil, "--root", one, "--root", two)
	for _, c := range []struct{ dir, want string }{{one, "notes of one\n"}, {two, "notes of two\n"}} {
		var found []string
		r := ok(t, cs, "file_find", `{"pattern":"*.md","path":"`+c.dir+`"}`)
		for _, f := range r["files"].([]any) {
			found = append(found, f.(string))
		}
		g := ok(t, cs, "file_grep", `{"pattern":"notes","path":"`+c.dir+`","output_mode":"content"}`)
		path, _, _ := strings.Cut(g["output"].(string), ":")
		found = append(found, path)
		if c.dir == one && !slices.Equal(found, []string{"docs/notes.md", "docs/notes.md"}) {
			t.Errorf("results in the first root %v, want relative docs/notes.md", found)
		}
		for _, p := range found {
			if r := ok(t, cs, "file_read", `{"path":"`+p+`"}`); r["content"] != c.want {
				t.Errorf("file_read of the path %q that a search in %s returned: %q, want %q", p, c.dir, r["content"], c.want)
			}
		}
		ok(t, cs, "file_edit", `{"path":"`+found[0]+`","old_text":"notes","new_text":"edited"}`)
		if b, _ := os.ReadFile(filepath.Join(c.dir, "docs", "notes.md")); !strings.HasPrefix(string(b), "edited") {
			t.Errorf("the edit of %q did not land in %s: %q", found[0], c.dir, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(one, "docs", "notes.md")); string(b) != "edited of one\n" {
		t.Errorf("root one's file is %q", b)
	}
}

// Issue 13.18: `llmfs --version` and `llmfs version` did not exist and serverInfo.version
// was "dev". Both print the module version and the VCS revision, and the MCP server
// reports the same version.
func TestVersion(t *testing.T) {
	bin := llmfsBinary(t)
	// What the go command recorded in the binary: the module version, and the revision
	// when it built from a git checkout (not from a git worktree, nor with -buildvcs=false).
	m, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	version, rev := "devel", ""
	for line := range strings.Lines(string(m)) {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "mod" && f[2] != "(devel)":
			version = f[2]
		case len(f) >= 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision="):
			rev = strings.TrimPrefix(f[1], "vcs.revision=")
		}
	}
	var first string
	for _, arg := range []string{"--version", "version"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil {
			t.Fatalf("llmfs %s: %v", arg, err)
		}
		line := string(out)
		if !strings.HasPrefix(line, "llmfs "+version) || rev != "" && !strings.Contains(line, "revision "+rev) {
			t.Errorf("llmfs %s: %q, want version %s and revision %q", arg, line, version, rev)
		}
		if first != "" && line != first {
			t.Errorf("llmfs %s: %q, llmfs --version: %q", arg, line, first)
		}
		first = line
	}
	cs := stdioSession(t, nil, "--root", tempDir(t))
	got := cs.InitializeResult().ServerInfo.Version
	if !strings.HasPrefix(got, version) || rev != "" && version == "devel" && got != "devel+"+rev[:12] && got != "devel+"+rev[:12]+"-dirty" {
		t.Errorf("serverInfo.version %q, want %s (revision %q)", got, version, rev)
	}
}
