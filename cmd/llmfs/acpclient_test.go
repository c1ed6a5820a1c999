//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/internal/acppeer"
	"github.com/llmfs/llmfs/store"
)

// runPeer runs the agent peer on scenario through runACPClient.
func runPeer(t *testing.T, p *acppeer.Project, scenario string, opts acpClientOptions) (*acpSummary, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts.Root = p.Root
	opts.Prompt = scenario
	opts.Command = []string{os.Args[0]}
	opts.Env = p.Env()
	opts.Stdout, opts.Stderr = &stdout, &stderr
	if opts.Approve == "" {
		opts.Approve = acpApproveNone
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := runACPClient(ctx, opts)
	if err != nil {
		t.Fatalf("runACPClient: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	return sum, stdout.String()
}

// TestACPPromptTurnCheckpoint: issue 14.7, llmfs acp makes a checkpoint at the start of
// every prompt turn, so the turn's changes can be restored away.
func TestACPPromptTurnCheckpoint(t *testing.T) {
	p := acppeer.NewProject(t)
	sum, out := runPeer(t, p, "direct", acpClientOptions{})
	if sum.Checkpoint == "" {
		t.Fatal("no checkpoint named in the summary")
	}
	// The summary ends with the command that takes the turn back (issue 33 item 7).
	if want := "--- to take this turn back: llmfs restore --root " + shellQuote(p.Root) + " " + sum.Checkpoint + "\n"; !strings.HasSuffix(out, want) {
		t.Errorf("output does not end with %q:\n%s", want, out)
	}
	w, err := host.Open(&llmfs.Options{Root: p.Root})
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

// TestACPPeerDirect runs the fs cases from a Go agent in another process against runACPClient's
// file server.
func TestACPPeerDirect(t *testing.T) {
	p := acppeer.NewProject(t)
	sum, out := runPeer(t, p, "direct", acpClientOptions{})
	root, _ := filepath.EvalSymlinks(p.Root)
	secret := filepath.Join(p.Outside, "secret.txt")
	acppeer.CheckResults(t, p.Results(t), []acppeer.Result{
		{Name: "whole", Content: "one\ntwo\nthree\nfour\n"},
		{Name: "line+limit", Content: "two\nthree\n"},
		{Name: "past end", Content: ""},
		{Name: "missing", Code: acp.CodeResourceNotFound, Message: "Resource not found: " + root + "/nope.txt", URI: root + "/nope.txt"},
		{Name: "outside", Code: acp.CodeInvalidParams, Message: "Invalid params: " + secret + " is outside the session's roots (" + root + "); this client serves only files below them"},
		{Name: "symlink out", Code: acp.CodeInvalidParams, Message: "Invalid params: " + root + "/link-out is outside the session's roots (" + root + "); this client serves only files below them"},
		{Name: "bad line", Code: acp.CodeInvalidParams},
		{Name: "write new"}, {Name: "write nested"}, {Name: "write empty"}, {Name: "write overwrite"},
		{Name: "write outside", Code: acp.CodeInvalidParams},
	})
	for rel, want := range map[string]string{"new.txt": "fresh\n", "x/y/z.txt": "deep", "empty.txt": "", "b.txt": "overwritten\n"} {
		if got := p.File(t, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if got, _ := os.ReadFile(secret); string(got) != "top secret\n" {
		t.Errorf("secret became %q", got)
	}
	if len(sum.Changes) != 4 || sum.StopReason != "end_turn" || sum.SessionID != acppeer.SessionID {
		t.Errorf("summary = %+v", sum)
	}
	for _, want := range []string{"done: direct\n", "[fs] created new.txt (6 bytes)", "--- stop reason: end_turn", "--- 4 file(s) changed",
		"  created  x/y/z.txt", "  modified b.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestACPPeerStore runs an agent's workspace over AgentStore against runACPClient: reads and
// writes go through the client (and are recorded there); listing uses the local disk.
func TestACPPeerStore(t *testing.T) {
	p := acppeer.NewProject(t)
	sum, _ := runPeer(t, p, "store", acpClientOptions{})
	acppeer.CheckResults(t, p.Results(t), []acppeer.Result{
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
		if got := p.File(t, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	// Every write went through the client: nested, empty, overwrite, append, edit.
	if len(sum.Changes) != 5 {
		t.Errorf("client recorded %d changes, want 5: %+v", len(sum.Changes), sum.Changes)
	}
}

// TestACPPeerBigFile moves a 20 MiB file both ways in single messages, twice the 10 MiB cap
// of acp-go-sdk.
func TestACPPeerBigFile(t *testing.T) {
	p := acppeer.NewProject(t)
	var big strings.Builder
	for i := 0; big.Len() < 20<<20; i++ {
		fmt.Fprintf(&big, "line %08d: the quick brown fox jumps over the lazy dog \"quoted\" \\ tab\t\n", i)
	}
	content := big.String()
	acppeer.WriteFiles(t, p.Root, map[string]string{"big.txt": content})
	sum, _ := runPeer(t, p, "big", acpClientOptions{})
	acppeer.CheckResults(t, p.Results(t), []acppeer.Result{
		{Name: "read big", Content: fmt.Sprintf("%d %s", len(content), store.Hash([]byte(content)))},
		{Name: "write big"},
	})
	if got := p.File(t, "big-copy.txt"); got != content {
		t.Errorf("big-copy.txt is %d bytes, want %d", len(got), len(content))
	}
	if len(sum.Changes) != 1 || !sum.Changes[0].Created || sum.Changes[0].Bytes != len(content) {
		t.Errorf("changes = %+v", sum.Changes)
	}
}

// TestACPPeerReadBeforeOverwriteByIdentity: a file the agent read through the client is
// not known by its metadata, which describes the file on the disk, not the content the
// client served (an editor's buffer, say): an overwrite after a same-size change on the
// disk with the modification time set back is refused, and the change kept.
func TestACPPeerReadBeforeOverwriteByIdentity(t *testing.T) {
	p := acppeer.NewProject(t)
	acppeer.WriteFiles(t, p.Root, map[string]string{"big.txt": "aaaaaaaaaaaaaaaa\n"})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(p.Root, "big.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	runPeer(t, p, "identity", acpClientOptions{})
	acppeer.CheckResults(t, p.Results(t), []acppeer.Result{
		{Name: "read"},
		{Name: "changed on disk"},
		{Name: "overwrite", FSCode: string(llmfs.CodeFileChanged)},
	})
	if got := p.File(t, "big.txt"); got != "bbbbbbbbbbbbbbbb\n" {
		t.Errorf("big.txt = %q, want the change made on the disk", got)
	}
}

// TestACPPeerConcurrent has the agent keep 64 requests in flight on one connection.
func TestACPPeerConcurrent(t *testing.T) {
	p := acppeer.NewProject(t)
	files := map[string]string{}
	for i := range 64 {
		files[fmt.Sprintf("c/%d.txt", i)] = strings.Repeat(fmt.Sprintf("file %d\n", i), 1000+i)
	}
	acppeer.WriteFiles(t, p.Root, files)
	sum, _ := runPeer(t, p, "concurrent", acpClientOptions{})
	acppeer.CheckResults(t, p.Results(t), []acppeer.Result{{Name: "concurrent", Content: ""}})
	if len(sum.Changes) != 16 {
		t.Errorf("%d changes, want 16", len(sum.Changes))
	}
	for i := 3; i < 64; i += 4 {
		if got, want := p.File(t, fmt.Sprintf("w/%d.txt", i)), fmt.Sprintf("written %d\n", i); got != want {
			t.Errorf("w/%d.txt = %q, want %q", i, got, want)
		}
	}
}

func TestACPPeerPermission(t *testing.T) {
	type test struct {
		approve, input string
		want           string
	}
	for _, tc := range []test{
		{acpApproveAll, "", "selected yes"},
		{acpApproveNone, "", "selected no"},
		{acpApproveAsk, "1\n", "selected yes"},
		{acpApproveAsk, "no\n", "selected no"},
		{acpApproveAsk, "", "selected no"},        // EOF: reject
		{acpApproveAsk, "maybe\n", "selected no"}, // nonsense: reject
	} {
		p := acppeer.NewProject(t)
		opts := acpClientOptions{Approve: tc.approve}
		if tc.input != "" {
			opts.Input = strings.NewReader(tc.input)
		}
		_, out := runPeer(t, p, "permission", opts)
		acppeer.CheckResults(t, p.Results(t), []acppeer.Result{{Name: "permission", Content: tc.want}})
		if !strings.Contains(out, "[permission] ") || !strings.Contains(out, "Delete everything") {
			t.Errorf("approve=%s: output does not show the question:\n%s", tc.approve, out)
		}
	}
}

func TestACPClientErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, opts := range []acpClientOptions{
		{Root: dir},
		{Root: dir, Command: []string{"true"}, Approve: "maybe"},
		{Root: dir, Command: []string{"true"}, Mode: "rw"},
		{Root: filepath.Join(dir, "nope"), Command: []string{"true"}},
		{Root: dir, Command: []string{filepath.Join(dir, "no-such-agent")}},
	} {
		if _, err := runACPClient(ctx, opts); err == nil {
			t.Errorf("RunClient(%+v) succeeded", opts)
		}
	}
	// An agent that exits at once: a clear error, no hang.
	_, err := runACPClient(ctx, acpClientOptions{Root: dir, Command: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "initialize") {
		t.Errorf("RunClient with an agent that exits = %v", err)
	}
}

// TestACPClientCancel cancels runACPClient's context mid-turn: the agent gets session/cancel
// and ends the turn with stopReason "cancelled".
func TestACPClientCancel(t *testing.T) {
	p := acppeer.NewProject(t)
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
	sum, err := runACPClient(ctx, acpClientOptions{Root: p.Root, Prompt: "hang", Command: []string{os.Args[0]}, Env: p.Env(), Stdout: stdoutW, Approve: acpApproveNone})
	if err != nil {
		t.Fatalf("RunClient after cancel: %v", err)
	}
	if sum.StopReason != "cancelled" {
		t.Errorf("stop reason %q, want cancelled", sum.StopReason)
	}
}

// TestACPClientAgentCrash has the agent exit in the middle of a turn.
func TestACPClientAgentCrash(t *testing.T) {
	p := acppeer.NewProject(t)
	var stdout bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := runACPClient(ctx, acpClientOptions{Root: p.Root, Prompt: "crash", Command: []string{os.Args[0]}, Env: p.Env(), Stdout: &stdout, Approve: acpApproveNone})
	if err == nil || !strings.Contains(err.Error(), "closed the connection") {
		t.Errorf("RunClient with a crashing agent = %v", err)
	}
}

var outMu sync.Mutex

// lockedWriter lets a test read what runACPClient writes while it runs.
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

// TestACPClientCancelWhileAsking cancels runACPClient while a permission question waits for
// an answer that never comes: runACPClient must still return, and answer "cancelled".
func TestACPClientCancelWhileAsking(t *testing.T) {
	p := acppeer.NewProject(t)
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
		runACPClient(ctx, acpClientOptions{Root: p.Root, Prompt: "permission", Command: []string{os.Args[0]}, Env: p.Env(),
			Stdout: &lockedWriter{w: &stdout}, Approve: acpApproveAsk, Input: input})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("RunClient hangs after cancel while a question waits for input:\n%s", syncRead(&stdout))
	}
	acppeer.CheckResults(t, p.Results(t), []acppeer.Result{{Name: "permission", Content: "cancelled "}})
}

// Issue 12.8: an agent that writes to "CWD/x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt"
// (and titles a tool call, and sends a message, with control characters) must not put a
// forged line or an escape sequence on the user's terminal, live or in the summary.
func TestACPTerminalInjection(t *testing.T) {
	p := acppeer.NewProject(t)
	_, out := runPeer(t, p, "inject", acpClientOptions{})
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
	p := acppeer.NewProject(t)
	acppeer.WriteFiles(t, p.Root, map[string]string{".env": "TOKEN=s3cret\n"})
	_, out := runPeer(t, p, "denied", acpClientOptions{})
	root, _ := filepath.EvalSymlinks(p.Root)
	secret := filepath.Join(p.Outside, "secret.txt")
	outside := func(path string) string {
		return "Invalid params: " + path + " is outside the session's roots (" + root + "); this client serves only files below them"
	}
	denied := `Invalid params: access denied: .env is protected by the workspace's deny rule`
	got := p.Results(t)
	acppeer.CheckResults(t, got, []acppeer.Result{
		{Name: "read denied", Code: acp.CodeInvalidParams},
		{Name: "write denied", Code: acp.CodeInvalidParams},
		{Name: "read outside", Code: acp.CodeInvalidParams, Message: outside(secret)},
		{Name: "read symlink out", Code: acp.CodeInvalidParams, Message: outside(root + "/link-out")},
		{Name: "write outside", Code: acp.CodeInvalidParams, Message: outside(secret)},
		{Name: "read missing", Code: acp.CodeResourceNotFound, Message: "Resource not found: " + root + "/nope.txt", URI: root + "/nope.txt"},
	})
	for _, name := range []string{"read denied", "write denied"} {
		if !strings.HasPrefix(got[name].Message, denied) {
			t.Errorf("%s: message %q, want it to start %q", name, got[name].Message, denied)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(p.Root, ".env")); string(b) != "TOKEN=s3cret\n" {
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
	p := &acpPrinter{w: &b}
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read a.txt","kind":"read","status":"pending"}}`))
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}`))
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call_update","toolCallId":"t2","status":"failed"}}`))
	p.update(json.RawMessage(`{"update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read b.txt","status":"completed"}}`))
	want := "[tool t1] Read a.txt (read) pending\n[tool t1] Read a.txt completed\n[tool t2]  failed\n[tool t1] Read b.txt completed\n"
	if b.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", b.String(), want)
	}
}
