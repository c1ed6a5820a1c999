//go:build !js && !wasip1

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
)

// peerProject is a project directory for the agent peer, with a directory outside it.
type peerProject struct {
	base, root, outside, result string
}

func newPeerProject(t *testing.T) *peerProject {
	t.Helper()
	base := t.TempDir()
	p := &peerProject{base: base, root: filepath.Join(base, "proj"), outside: filepath.Join(base, "outside"), result: filepath.Join(base, "result.json")}
	writeFiles(t, p.root, map[string]string{
		"a.txt": "one\ntwo\nthree\nfour\n",
		"b.txt": "bee\n",
	})
	writeFiles(t, p.outside, map[string]string{"secret.txt": "top secret\n"})
	if err := os.Symlink(filepath.Join(p.outside, "secret.txt"), filepath.Join(p.root, "link-out")); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *peerProject) env() []string {
	return append(os.Environ(), "LLMFS_ACP_PEER=agent", "LLMFS_ACP_RESULT="+p.result, "LLMFS_ACP_OUTSIDE="+filepath.Join(p.outside, "secret.txt"))
}

func (p *peerProject) results(t *testing.T) map[string]peerResult {
	t.Helper()
	b, err := os.ReadFile(p.result)
	if err != nil {
		t.Fatalf("the agent left no results: %v", err)
	}
	var list []peerResult
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	m := map[string]peerResult{}
	for _, r := range list {
		m[r.Name] = r
	}
	return m
}

func (p *peerProject) file(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p.root, rel))
	if err != nil {
		t.Errorf("reading %s: %v", rel, err)
	}
	return string(b)
}

// runPeer runs the agent peer on scenario through RunClient.
func runPeer(t *testing.T, p *peerProject, scenario string, opts ClientOptions) (*Summary, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts.Root = p.root
	opts.Prompt = scenario
	opts.Command = []string{os.Args[0]}
	opts.Env = p.env()
	opts.Stdout, opts.Stderr = &stdout, &stderr
	if opts.Approve == "" {
		opts.Approve = ApproveNone
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := RunClient(ctx, opts)
	if err != nil {
		t.Fatalf("RunClient: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	return sum, stdout.String()
}

// checkResults compares the agent's observations with want, where a want with a Code or
// FSCode expects that error and otherwise the content.
func checkResults(t *testing.T, got map[string]peerResult, want []peerResult) {
	t.Helper()
	for _, w := range want {
		g, ok := got[w.Name]
		switch {
		case !ok:
			t.Errorf("%s: no result", w.Name)
		case g.Code != w.Code || g.FSCode != w.FSCode || g.Content != w.Content:
			t.Errorf("%s: got %+v\nwant %+v", w.Name, g, w)
		case w.Message != "" && g.Message != w.Message:
			t.Errorf("%s: message %q, want %q", w.Name, g.Message, w.Message)
		case w.URI != "" && g.URI != w.URI:
			t.Errorf("%s: uri %q, want %q", w.Name, g.URI, w.URI)
		}
	}
}

// TestPromptTurnCheckpoint: issue 14.7, llmfs acp makes a checkpoint at the start of
// every prompt turn, so the turn's changes can be restored away.
func TestPromptTurnCheckpoint(t *testing.T) {
	p := newPeerProject(t)
	sum, out := runPeer(t, p, "direct", ClientOptions{})
	if sum.Checkpoint == "" {
		t.Fatal("no checkpoint named in the summary")
	}
	// The summary ends with the command that takes the turn back (issue 33 item 7).
	if want := "--- to take this turn back: llmfs restore --root " + shellQuote(p.root) + " " + sum.Checkpoint + "\n"; !strings.HasSuffix(out, want) {
		t.Errorf("output does not end with %q:\n%s", want, out)
	}
	w, err := host.Open(&llmfs.Options{Root: p.root})
	if err != nil {
		t.Fatal(err)
	}
	cps, err := w.History().Checkpoints(context.Background())
	if err != nil || len(cps) != 1 || cps[0].Name != sum.Checkpoint {
		t.Fatalf("checkpoints %v, %v; want one, %q", cps, err, sum.Checkpoint)
	}
	cp := cps[0]
	after, err := w.History().List(context.Background(), llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) == 0 || after[0].ID <= cp.ID {
		t.Errorf("checkpoint at %d, newest change %v: want the turn's changes after it", cp.ID, after)
	}
}

// TestPeerDirect runs the fs cases from a Go agent in another process against RunClient's
// file server.
func TestPeerDirect(t *testing.T) {
	p := newPeerProject(t)
	sum, out := runPeer(t, p, "direct", ClientOptions{})
	root, _ := filepath.EvalSymlinks(p.root)
	secret := filepath.Join(p.outside, "secret.txt")
	checkResults(t, p.results(t), []peerResult{
		{Name: "whole", Content: "one\ntwo\nthree\nfour\n"},
		{Name: "line+limit", Content: "two\nthree\n"},
		{Name: "past end", Content: ""},
		{Name: "missing", Code: CodeResourceNotFound, Message: "Resource not found: " + root + "/nope.txt", URI: root + "/nope.txt"},
		{Name: "outside", Code: CodeInvalidParams, Message: "Invalid params: " + secret + " is outside the session's roots (" + root + "); this client serves only files below them"},
		{Name: "symlink out", Code: CodeInvalidParams, Message: "Invalid params: " + root + "/link-out is outside the session's roots (" + root + "); this client serves only files below them"},
		{Name: "bad line", Code: CodeInvalidParams},
		{Name: "write new"}, {Name: "write nested"}, {Name: "write empty"}, {Name: "write overwrite"},
		{Name: "write outside", Code: CodeInvalidParams},
	})
	for rel, want := range map[string]string{"new.txt": "fresh\n", "x/y/z.txt": "deep", "empty.txt": "", "b.txt": "overwritten\n"} {
		if got := p.file(t, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if got, _ := os.ReadFile(secret); string(got) != "top secret\n" {
		t.Errorf("secret became %q", got)
	}
	if len(sum.Changes) != 4 || sum.StopReason != "end_turn" || sum.SessionID != peerSession {
		t.Errorf("summary = %+v", sum)
	}
	for _, want := range []string{"done: direct\n", "[fs] created new.txt (6 bytes)", "--- stop reason: end_turn", "--- 4 file(s) changed",
		"  created  x/y/z.txt", "  modified b.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestPeerStore runs an agent's workspace over AgentStore against RunClient: reads and
// writes go through the client (and are recorded there); listing uses the local disk.
func TestPeerStore(t *testing.T) {
	p := newPeerProject(t)
	sum, _ := runPeer(t, p, "store", ClientOptions{})
	checkResults(t, p.results(t), []peerResult{
		{Name: "read", Content: "one\ntwo\nthree\nfour\n"},
		{Name: "read line+limit", Content: "two\nthree\n"},
		{Name: "read missing", FSCode: string(llmfs.CodeFileNotFound)},
		{Name: "read symlink out", FSCode: string(llmfs.CodeInvalidPath)},
		{Name: "read outside", FSCode: string(llmfs.CodeInvalidPath)},
		{Name: "write nested"}, {Name: "write empty"}, {Name: "write overwrite"}, {Name: "write append"},
		{Name: "write create existing", FSCode: string(llmfs.CodeFileAlreadyExists)},
		{Name: "edit"},
		{Name: "read b", Content: "bee\n"},
		{Name: "list", Content: "a.txt,b.txt,store-empty.txt,store-new"}, // the link out is not listed
	})
	for rel, want := range map[string]string{"store-new/n.txt": "via store\n", "store-empty.txt": "", "b.txt": "store overwrite\nappended\n", "a.txt": "one\ntwo\nTHREE\nfour\n"} {
		if got := p.file(t, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	// Every write went through the client: nested, empty, overwrite, append, edit.
	if len(sum.Changes) != 5 {
		t.Errorf("client recorded %d changes, want 5: %+v", len(sum.Changes), sum.Changes)
	}
}

// TestPeerStoreCapabilities runs the agent's store against a client that advertises
// less: the agent must then use its local disk and never call what is not advertised.
func TestPeerStoreCapabilities(t *testing.T) {
	type test struct {
		caps FileSystemCapability
	}
	for _, tc := range []test{{FileSystemCapability{}}, {FileSystemCapability{ReadTextFile: true}}, {FileSystemCapability{WriteTextFile: true}}, {FileSystemCapability{ReadTextFile: true, WriteTextFile: true}}} {
		t.Run(fmt.Sprintf("read=%v,write=%v", tc.caps.ReadTextFile, tc.caps.WriteTextFile), func(t *testing.T) {
			p := newPeerProject(t)
			srv := NewFileServer(nil)
			// An unsaved buffer tells whether a read went to the client.
			srv.SetBuffer(filepath.Join(p.root, "b.txt"), "buffered\n")
			calls := runRawClient(t, p, tc.caps, srv, "store")
			res := p.results(t)
			if !tc.caps.ReadTextFile && calls[MethodReadTextFile] > 0 {
				t.Errorf("agent called %s %d times without the capability", MethodReadTextFile, calls[MethodReadTextFile])
			}
			if !tc.caps.WriteTextFile && calls[MethodWriteTextFile] > 0 {
				t.Errorf("agent called %s %d times without the capability", MethodWriteTextFile, calls[MethodWriteTextFile])
			}
			if tc.caps.ReadTextFile && calls[MethodReadTextFile] == 0 || tc.caps.WriteTextFile && calls[MethodWriteTextFile] == 0 {
				t.Errorf("agent did not use an advertised method: %v", calls)
			}
			if got := res["read"].Content; got != "one\ntwo\nthree\nfour\n" {
				t.Errorf("read = %q", got)
			}
			// b.txt: read, overwritten, appended to.
			wantRead, wantDisk, wantBuf := "bee\n", "store overwrite\nappended\n", "buffered\n"
			if tc.caps.WriteTextFile {
				wantBuf = wantDisk // writes through the client update its buffer
			}
			if tc.caps.ReadTextFile {
				wantRead = "buffered\n"
			}
			if got := res["read b"].Content; got != wantRead {
				t.Errorf("read b.txt = %q, want %q", got, wantRead)
			}
			if got := p.file(t, "b.txt"); got != wantDisk {
				t.Errorf("b.txt on disk = %q, want %q", got, wantDisk)
			}
			if b, _ := srv.Buffer(filepath.Join(p.root, "b.txt")); b != wantBuf {
				t.Errorf("buffer b.txt = %q, want %q", b, wantBuf)
			}
			wantChanges := 0
			if tc.caps.WriteTextFile {
				wantChanges = 5
			}
			if n := len(srv.Changes()); n != wantChanges {
				t.Errorf("client recorded %d changes, want %d", n, wantChanges)
			}
			if got := p.file(t, "store-new/n.txt"); got != "via store\n" {
				t.Errorf("store-new/n.txt = %q", got)
			}
			if got := p.file(t, "a.txt"); got != "one\ntwo\nTHREE\nfour\n" {
				t.Errorf("a.txt after edit = %q", got)
			}
		})
	}
}

// runRawClient runs the agent peer under a minimal client that advertises caps, serves
// what it advertised from srv, and counts the methods the agent called.
func runRawClient(t *testing.T, p *peerProject, caps FileSystemCapability, srv *FileServer, scenario string) map[string]int {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = p.env()
	cmd.Dir = p.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls := map[string]int{}
	conn := NewConn(stdout, stdin, func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		mu.Lock()
		calls[method]++
		mu.Unlock()
		if method == MethodReadTextFile && !caps.ReadTextFile || method == MethodWriteTextFile && !caps.WriteTextFile {
			return nil, &Error{Code: CodeMethodNotFound, Message: "not advertised: " + method}
		}
		return srv.Handle(ctx, method, params)
	})
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			conn.Close()
			cmd.Wait()
			conn.Wait()
		}
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var init InitializeResponse
	if err := conn.Call(ctx, MethodInitialize, &InitializeRequest{ProtocolVersion: 1, ClientCapabilities: ClientCapabilities{FS: caps}}, &init); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	var sess NewSessionResponse
	if err := conn.Call(ctx, MethodSessionNew, &NewSessionRequest{Cwd: p.root, MCPServers: []any{}}, &sess); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddSession(sess.SessionID, p.root); err != nil {
		t.Fatal(err)
	}
	err := conn.Call(ctx, MethodSessionPrompt, map[string]any{"sessionId": sess.SessionID, "prompt": []map[string]string{{"type": "text", "text": scenario}}}, nil)
	if err != nil {
		t.Fatalf("prompt: %v\n%s", err, stderr.String())
	}
	stop()
	return calls
}

// TestPeerBigFile moves a 20 MiB file both ways in single messages, twice the 10 MiB cap
// of acp-go-sdk.
func TestPeerBigFile(t *testing.T) {
	p := newPeerProject(t)
	var big strings.Builder
	for i := 0; big.Len() < 20<<20; i++ {
		fmt.Fprintf(&big, "line %08d: the quick brown fox jumps over the lazy dog \"quoted\" \\ tab\t\n", i)
	}
	content := big.String()
	writeFiles(t, p.root, map[string]string{"big.txt": content})
	sum, _ := runPeer(t, p, "big", ClientOptions{})
	checkResults(t, p.results(t), []peerResult{
		{Name: "read big", Content: fmt.Sprintf("%d %s", len(content), store.Hash([]byte(content)))},
		{Name: "write big"},
	})
	if got := p.file(t, "big-copy.txt"); got != content {
		t.Errorf("big-copy.txt is %d bytes, want %d", len(got), len(content))
	}
	if len(sum.Changes) != 1 || !sum.Changes[0].Created || sum.Changes[0].Bytes != len(content) {
		t.Errorf("changes = %+v", sum.Changes)
	}
}

// TestPeerReadBeforeOverwriteByIdentity: a file the agent read through the client is
// not known by its metadata, which describes the file on the disk, not the content the
// client served (an editor's buffer, say): an overwrite after a same-size change on the
// disk with the modification time set back is refused, and the change kept.
func TestPeerReadBeforeOverwriteByIdentity(t *testing.T) {
	p := newPeerProject(t)
	writeFiles(t, p.root, map[string]string{"big.txt": "aaaaaaaaaaaaaaaa\n"})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(p.root, "big.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	runPeer(t, p, "identity", ClientOptions{})
	checkResults(t, p.results(t), []peerResult{
		{Name: "read"},
		{Name: "changed on disk"},
		{Name: "overwrite", FSCode: string(llmfs.CodeFileChanged)},
	})
	if got := p.file(t, "big.txt"); got != "bbbbbbbbbbbbbbbb\n" {
		t.Errorf("big.txt = %q, want the change made on the disk", got)
	}
}

// TestPeerConcurrent has the agent keep 64 requests in flight on one connection.
func TestPeerConcurrent(t *testing.T) {
	p := newPeerProject(t)
	files := map[string]string{}
	for i := range 64 {
		files[fmt.Sprintf("c/%d.txt", i)] = strings.Repeat(fmt.Sprintf("file %d\n", i), 1000+i)
	}
	writeFiles(t, p.root, files)
	sum, _ := runPeer(t, p, "concurrent", ClientOptions{})
	checkResults(t, p.results(t), []peerResult{{Name: "concurrent", Content: ""}})
	if len(sum.Changes) != 16 {
		t.Errorf("%d changes, want 16", len(sum.Changes))
	}
	for i := 3; i < 64; i += 4 {
		if got, want := p.file(t, fmt.Sprintf("w/%d.txt", i)), fmt.Sprintf("written %d\n", i); got != want {
			t.Errorf("w/%d.txt = %q, want %q", i, got, want)
		}
	}
}

func TestPeerPermission(t *testing.T) {
	type test struct {
		approve, input string
		want           string
	}
	for _, tc := range []test{
		{ApproveAll, "", "selected yes"},
		{ApproveNone, "", "selected no"},
		{ApproveAsk, "1\n", "selected yes"},
		{ApproveAsk, "no\n", "selected no"},
		{ApproveAsk, "", "selected no"},        // EOF: reject
		{ApproveAsk, "maybe\n", "selected no"}, // nonsense: reject
	} {
		p := newPeerProject(t)
		opts := ClientOptions{Approve: tc.approve}
		if tc.input != "" {
			opts.Input = strings.NewReader(tc.input)
		}
		_, out := runPeer(t, p, "permission", opts)
		checkResults(t, p.results(t), []peerResult{{Name: "permission", Content: tc.want}})
		if !strings.Contains(out, "[permission] ") || !strings.Contains(out, "Delete everything") {
			t.Errorf("approve=%s: output does not show the question:\n%s", tc.approve, out)
		}
	}
}

func TestRunClientErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, opts := range []ClientOptions{
		{Root: dir},
		{Root: dir, Command: []string{"true"}, Approve: "maybe"},
		{Root: dir, Command: []string{"true"}, Mode: "rw"},
		{Root: filepath.Join(dir, "nope"), Command: []string{"true"}},
		{Root: dir, Command: []string{filepath.Join(dir, "no-such-agent")}},
	} {
		if _, err := RunClient(ctx, opts); err == nil {
			t.Errorf("RunClient(%+v) succeeded", opts)
		}
	}
	// An agent that exits at once: a clear error, no hang.
	_, err := RunClient(ctx, ClientOptions{Root: dir, Command: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "initialize") {
		t.Errorf("RunClient with an agent that exits = %v", err)
	}
}

// TestRunClientCancel cancels RunClient's context mid-turn: the agent gets session/cancel
// and ends the turn with stopReason "cancelled".
func TestRunClientCancel(t *testing.T) {
	p := newPeerProject(t)
	var stdout bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the agent has started working.
		for !strings.Contains(syncRead(&stdout), "working...") {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	stdoutW := &lockedWriter{w: &stdout}
	sum, err := RunClient(ctx, ClientOptions{Root: p.root, Prompt: "hang", Command: []string{os.Args[0]}, Env: p.env(), Stdout: stdoutW, Approve: ApproveNone})
	if err != nil {
		t.Fatalf("RunClient after cancel: %v", err)
	}
	if sum.StopReason != "cancelled" {
		t.Errorf("stop reason %q, want cancelled", sum.StopReason)
	}
}

// TestRunClientAgentCrash has the agent exit in the middle of a turn.
func TestRunClientAgentCrash(t *testing.T) {
	p := newPeerProject(t)
	var stdout bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := RunClient(ctx, ClientOptions{Root: p.root, Prompt: "crash", Command: []string{os.Args[0]}, Env: p.env(), Stdout: &stdout, Approve: ApproveNone})
	if err == nil || !strings.Contains(err.Error(), "closed the connection") {
		t.Errorf("RunClient with a crashing agent = %v", err)
	}
}

var outMu sync.Mutex

// lockedWriter lets a test read what RunClient writes while it runs.
type lockedWriter struct{ w *bytes.Buffer }

func (l *lockedWriter) Write(b []byte) (int, error) {
	outMu.Lock()
	defer outMu.Unlock()
	return l.w.Write(b)
}

func syncRead(b *bytes.Buffer) string {
	outMu.Lock()
	defer outMu.Unlock()
	return b.String()
}

// TestRunClientCancelWhileAsking cancels RunClient while a permission question waits for
// an answer that never comes: RunClient must still return, and answer "cancelled".
func TestRunClientCancelWhileAsking(t *testing.T) {
	p := newPeerProject(t)
	var stdout bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for !strings.Contains(syncRead(&stdout), "choose a number") {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	input, inputW := io.Pipe() // an answer that never comes
	defer inputW.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		RunClient(ctx, ClientOptions{Root: p.root, Prompt: "permission", Command: []string{os.Args[0]}, Env: p.env(),
			Stdout: &lockedWriter{w: &stdout}, Approve: ApproveAsk, Input: input})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("RunClient hangs after cancel while a question waits for input:\n%s", syncRead(&stdout))
	}
	checkResults(t, p.results(t), []peerResult{{Name: "permission", Content: "cancelled "}})
}

// Issue 12.8: an agent that writes to "CWD/x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt"
// (and titles a tool call, and sends a message, with control characters) must not put a
// forged line or an escape sequence on the user's terminal, live or in the summary.
func TestACPTerminalInjection(t *testing.T) {
	p := newPeerProject(t)
	_, out := runPeer(t, p, "inject", ClientOptions{})
	if strings.ContainsAny(out, "\x1b\r\x07") {
		t.Errorf("a control character reached the output:\n%q", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[fs] modified /etc/passwd") || strings.HasPrefix(line, "[fs] created /etc/shadow") ||
			strings.Contains(line, "modified /etc/passwd (1 bytes)") && !strings.Contains(line, `\n`) {
			t.Errorf("forged line %q in:\n%s", line, out)
		}
	}
	for _, want := range []string{
		`[fs] created "x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt" (6 bytes)`,
		`  created  "x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt"`,
		`[tool "t\r1"] "Read\n[fs] created /etc/shadow (1 bytes)" (read) pending`,
		`[tool "t\r1"] "Read\n[fs] created /etc/shadow (1 bytes)" completed`,
		`text with an escape \x1b]0;owned\a and a \rcarriage return`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks the line %q:\n%s", want, out)
		}
	}
}

// Issue 13.19: a denied path got -32603 "internal error", and a file that exists outside
// the root got "Resource not found". Each is refused with -32602, a message that says why,
// and the llmfs code in data; only a missing file inside the roots is not found.
func TestACPRefusals(t *testing.T) {
	p := newPeerProject(t)
	writeFiles(t, p.root, map[string]string{".env": "TOKEN=s3cret\n"})
	_, out := runPeer(t, p, "denied", ClientOptions{})
	root, _ := filepath.EvalSymlinks(p.root)
	secret := filepath.Join(p.outside, "secret.txt")
	outside := func(path string) string {
		return "Invalid params: " + path + " is outside the session's roots (" + root + "); this client serves only files below them"
	}
	denied := `Invalid params: access denied: .env is protected by the workspace's deny rule`
	got := p.results(t)
	checkResults(t, got, []peerResult{
		{Name: "read denied", Code: CodeInvalidParams},
		{Name: "write denied", Code: CodeInvalidParams},
		{Name: "read outside", Code: CodeInvalidParams, Message: outside(secret)},
		{Name: "read symlink out", Code: CodeInvalidParams, Message: outside(root + "/link-out")},
		{Name: "write outside", Code: CodeInvalidParams, Message: outside(secret)},
		{Name: "read missing", Code: CodeResourceNotFound, Message: "Resource not found: " + root + "/nope.txt", URI: root + "/nope.txt"},
	})
	for _, name := range []string{"read denied", "write denied"} {
		if !strings.HasPrefix(got[name].Message, denied) {
			t.Errorf("%s: message %q, want it to start %q", name, got[name].Message, denied)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(p.root, ".env")); string(b) != "TOKEN=s3cret\n" {
		t.Errorf(".env = %q after a denied write", b)
	}
	if strings.Contains(out, "[fs]") {
		t.Errorf("a refused write was reported as a change:\n%s", out)
	}
}

// Issue 13.19: a tool_call_update names its call by id only; the line printed for it
// carries the title the call was announced with (or a new title the update gives).
func TestACPToolUpdateTitle(t *testing.T) {
	var b strings.Builder
	p := &printer{w: &b}
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read a.txt","kind":"read","status":"pending"}}`))
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}`))
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call_update","toolCallId":"t2","status":"failed"}}`))
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read b.txt","status":"completed"}}`))
	want := "[tool t1] Read a.txt (read) pending\n[tool t1] Read a.txt completed\n[tool t2]  failed\n[tool t1] Read b.txt completed\n"
	if b.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", b.String(), want)
	}
}
