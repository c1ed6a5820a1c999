//go:build !js && !wasip1

// Package acppeer is a Go ACP agent for tests: the tests of the ACP client (cmd/llmfs)
// and of the agent-side store (store/acpstore) run their test binary as this agent in a
// second process, so that the two sides meet over real pipes. TestMain calls [Main]
// first, which turns the process into the agent when [EnvVar] is "agent".
package acppeer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/acpstore"
)

// EnvVar set to "agent" makes [Main] run the agent; LLMFS_ACP_RESULT names the file its
// results go to and LLMFS_ACP_OUTSIDE a file outside the project.
const EnvVar = "LLMFS_ACP_PEER"

// Main runs the agent on stdin and stdout and exits when [EnvVar] is "agent", and
// returns otherwise.
func Main() {
	if os.Getenv(EnvVar) == "agent" {
		os.Exit(run())
	}
}

// rawLimits make the agent's workspace read like an editor: whole files, lines uncut.
var rawLimits = llmfs.Limits{MaxReadLines: math.MaxInt >> 2, MaxReadBytes: math.MaxInt >> 2, MaxLineLength: -1}

// contentBlock is a block of a prompt.
type contentBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Result is one observation the agent peer reports.
type Result struct {
	Name    string `json:"name"`
	Content string `json:"content,omitempty"`
	Code    int    `json:"code,omitempty"`    // JSON-RPC error code of a direct call
	FSCode  string `json:"fsCode,omitempty"`  // llmfs error code of a store-level call
	Message string `json:"message,omitempty"` // error message
	URI     string `json:"uri,omitempty"`     // data.uri of an error
}

// Peer is the Go agent the tests run in a subprocess, or on pipes of their own.
type Peer struct {
	conn *acp.Conn
	mu   sync.Mutex
	caps acp.FileSystemCapability
	cwd  string

	cancelled chan struct{} // closed by session/cancel

	resultPath string // where the results go
	outside    string // a file outside the root
}

// New returns an agent that writes its results to resultPath; outside is a file outside
// the project that it tries to reach. [Peer.Connect] starts it.
func New(resultPath, outside string) *Peer {
	return &Peer{resultPath: resultPath, outside: outside}
}

// Close closes the agent's connection.
func (p *Peer) Close() error { return p.conn.Close() }

func run() int {
	p := &Peer{resultPath: os.Getenv("LLMFS_ACP_RESULT"), outside: os.Getenv("LLMFS_ACP_OUTSIDE")}
	p.Connect(os.Stdin, os.Stdout)
	if err := p.conn.Wait(); err != nil {
		fmt.Fprintln(os.Stderr, "agent peer:", err)
		return 1
	}
	return 0
}

// SessionID is the id of the one session the agent opens.
const SessionID = "go-peer-session"

// Connect starts the agent's connection. It holds p.mu while it sets p.conn, and handle
// takes p.mu first, so no handler sees p.conn unset.
func (p *Peer) Connect(r io.Reader, w io.Writer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conn = acp.NewConn(r, w, p.handle)
}

func (p *Peer) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	p.mu.Lock() // wait for connect
	//lint:ignore SA2001 the empty section is the point: connect holds p.mu while it sets p.conn
	p.mu.Unlock()
	switch method {
	case acp.MethodInitialize:
		var req acp.InitializeRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.caps = req.ClientCapabilities.FS
		p.mu.Unlock()
		return &acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersion, AgentCapabilities: map[string]any{}, AuthMethods: []any{}}, nil
	case acp.MethodSessionNew:
		var req acp.NewSessionRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.cwd = req.Cwd
		p.mu.Unlock()
		return &acp.NewSessionResponse{SessionID: SessionID}, nil
	case acp.MethodSessionPrompt:
		var req struct {
			Prompt []contentBlock `json:"prompt"`
		}
		if err := json.Unmarshal(params, &req); err != nil || len(req.Prompt) == 0 {
			return nil, fmt.Errorf("bad prompt: %v", err)
		}
		switch req.Prompt[0].Text {
		case "hang":
			// Stream something, then wait for session/cancel.
			p.say(ctx, "working...")
			p.mu.Lock()
			if p.cancelled == nil {
				p.cancelled = make(chan struct{})
			}
			c := p.cancelled
			p.mu.Unlock()
			<-c
			return map[string]string{"stopReason": "cancelled"}, nil
		case "crash":
			p.say(ctx, "about to crash\n")
			os.Exit(3)
		}
		results, err := p.scenario(ctx, req.Prompt[0].Text)
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(results)
		if err := os.WriteFile(p.resultPath, b, 0o644); err != nil {
			return nil, err
		}
		p.say(ctx, "done: "+req.Prompt[0].Text+"\n")
		return map[string]string{"stopReason": "end_turn"}, nil
	case acp.MethodSessionCancel:
		p.mu.Lock()
		if p.cancelled == nil {
			p.cancelled = make(chan struct{})
		}
		select {
		case <-p.cancelled:
		default:
			close(p.cancelled)
		}
		p.mu.Unlock()
		return nil, nil
	}
	return nil, &acp.Error{Code: acp.CodeMethodNotFound, Message: "Method not found: " + method}
}

func (p *Peer) say(ctx context.Context, text string) {
	p.conn.Notify(ctx, acp.MethodSessionUpdate, map[string]any{
		"sessionId": SessionID,
		"update":    map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]string{"type": "text", "text": text}},
	})
}

func (p *Peer) workspace() (*llmfs.Workspace, *acpstore.Store, error) {
	p.mu.Lock()
	caps, cwd := p.caps, p.cwd
	p.mu.Unlock()
	st, err := acpstore.New(acpstore.Options{Conn: p.conn, SessionID: SessionID, Root: cwd, Capabilities: caps})
	if err != nil {
		return nil, nil, err
	}
	return llmfs.New(st, &llmfs.Options{Root: cwd, Limits: rawLimits}), st, nil
}

// direct calls fs/read_text_file on the client and records the outcome.
func (p *Peer) direct(ctx context.Context, name string, params map[string]any) Result {
	params["sessionId"] = SessionID
	var res acp.ReadTextFileResponse
	err := p.conn.Call(ctx, acp.MethodReadTextFile, params, &res)
	return resultOf(name, res.Content, err)
}

func (p *Peer) directWrite(ctx context.Context, name, path, content string) Result {
	err := p.conn.Call(ctx, acp.MethodWriteTextFile, &acp.WriteTextFileRequest{SessionID: SessionID, Path: path, Content: content}, nil)
	return resultOf(name, "", err)
}

func resultOf(name, content string, err error) Result {
	r := Result{Name: name, Content: content}
	var e *acp.Error
	switch {
	case errors.As(err, &e):
		r.Code, r.Message = e.Code, e.Message
		var data struct{ URI string }
		json.Unmarshal(e.Data, &data)
		r.URI = data.URI
	case err != nil:
		r.FSCode, r.Message = string(llmfs.CodeOf(err)), err.Error()
		if r.FSCode == "" {
			r.FSCode = "OTHER"
		}
	}
	return r
}

func (p *Peer) scenario(ctx context.Context, name string) ([]Result, error) {
	ws, st, err := p.workspace()
	if err != nil {
		return nil, err
	}
	cwd := ws.Root()
	abs := func(rel string) string { return cwd + "/" + rel }
	var out []Result
	add := func(r Result) { out = append(out, r) }
	switch name {
	case "direct":
		// The protocol cases, straight over the connection.
		add(p.direct(ctx, "whole", map[string]any{"path": abs("a.txt")}))
		add(p.direct(ctx, "line+limit", map[string]any{"path": abs("a.txt"), "line": 2, "limit": 2}))
		add(p.direct(ctx, "past end", map[string]any{"path": abs("a.txt"), "line": 99}))
		add(p.direct(ctx, "missing", map[string]any{"path": abs("nope.txt")}))
		add(p.direct(ctx, "outside", map[string]any{"path": p.outside}))
		add(p.direct(ctx, "symlink out", map[string]any{"path": abs("link-out")}))
		add(p.direct(ctx, "bad line", map[string]any{"path": abs("a.txt"), "line": 0}))
		add(p.directWrite(ctx, "write new", abs("new.txt"), "fresh\n"))
		add(p.directWrite(ctx, "write nested", abs("x/y/z.txt"), "deep"))
		add(p.directWrite(ctx, "write empty", abs("empty.txt"), ""))
		add(p.directWrite(ctx, "write overwrite", abs("b.txt"), "overwritten\n"))
		add(p.directWrite(ctx, "write outside", p.outside, "pwned"))
	case "store":
		out = append(out, storeCases(ctx, ws)...)
	case "big":
		f, err := st.Open(ctx, "big.txt")
		if err != nil {
			add(resultOf("read big", "", err))
			break
		}
		b, _ := io.ReadAll(f)
		f.Close()
		add(Result{Name: "read big", Content: fmt.Sprintf("%d %s", len(b), store.Hash(b))})
		_, err = st.WriteFile(ctx, "big-copy.txt", strings.NewReader(string(b)), store.WriteOptions{})
		add(resultOf("write big", "", err))
	case "identity":
		// A file too big to edit, read through the client, then written in place on the
		// disk (same size, modification time set back) before the agent overwrites it.
		ws := llmfs.New(st, &llmfs.Options{Root: cwd, RequireRead: true, Limits: llmfs.Limits{MaxEditBytes: 8}})
		_, err := ws.Read(ctx, "big.txt", llmfs.ReadOptions{Limit: 1})
		add(resultOf("read", "", err))
		host := filepath.Join(cwd, "big.txt")
		fi, err := os.Stat(host)
		if err == nil {
			err = os.WriteFile(host, []byte("bbbbbbbbbbbbbbbb\n"), 0o644)
		}
		if err == nil {
			err = os.Chtimes(host, fi.ModTime(), fi.ModTime())
		}
		add(resultOf("changed on disk", "", err))
		_, err = ws.Write(ctx, "big.txt", "mine, also big\n", llmfs.WriteOptions{})
		add(resultOf("overwrite", "", err))
	case "concurrent":
		out = append(out, p.concurrentCases(ctx, abs)...)
	case "permission":
		var res struct {
			Outcome struct {
				Outcome  string `json:"outcome"`
				OptionID string `json:"optionId"`
			} `json:"outcome"`
		}
		err := p.conn.Call(ctx, acp.MethodRequestPermission, map[string]any{
			"sessionId": SessionID,
			"toolCall":  map[string]any{"toolCallId": "t1", "title": "Delete everything"},
			"options": []map[string]string{
				{"optionId": "yes", "name": "Allow", "kind": "allow_once"},
				{"optionId": "no", "name": "Reject", "kind": "reject_once"},
			},
		}, &res)
		add(resultOf("permission", res.Outcome.Outcome+" "+res.Outcome.OptionID, err))
	case "inject":
		// Issue 12.8: names and text chosen to forge lines on the user's terminal.
		const evil = "x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt"
		add(p.directWrite(ctx, "write evil", abs(evil), "pwned\n"))
		p.conn.Notify(ctx, acp.MethodSessionUpdate, map[string]any{"sessionId": SessionID, "update": map[string]any{
			"sessionUpdate": "tool_call", "toolCallId": "t\r1", "title": "Read\n[fs] created /etc/shadow (1 bytes)", "kind": "read", "status": "pending"}})
		p.conn.Notify(ctx, acp.MethodSessionUpdate, map[string]any{"sessionId": SessionID, "update": map[string]any{
			"sessionUpdate": "tool_call_update", "toolCallId": "t\r1", "status": "completed"}})
		p.say(ctx, "text with an escape \x1b]0;owned\x07 and a \rcarriage return\n")
	case "denied":
		// Issue 13.19: what the agent gets for a denied path and for paths outside the root.
		add(p.direct(ctx, "read denied", map[string]any{"path": abs(".env")}))
		add(p.directWrite(ctx, "write denied", abs(".env"), "X=1\n"))
		add(p.direct(ctx, "read outside", map[string]any{"path": p.outside}))
		add(p.direct(ctx, "read symlink out", map[string]any{"path": abs("link-out")}))
		add(p.directWrite(ctx, "write outside", p.outside, "pwned"))
		add(p.direct(ctx, "read missing", map[string]any{"path": abs("nope.txt")}))
	default:
		return nil, fmt.Errorf("unknown scenario %q", name)
	}
	return out, nil
}

func readResult(name string, r *llmfs.ReadResult, err error) Result {
	if err != nil {
		return resultOf(name, "", err)
	}
	return Result{Name: name, Content: r.Content}
}

// storeCases are the fs cases through the agent-side store and a workspace on it.
func storeCases(ctx context.Context, ws *llmfs.Workspace) []Result {
	var out []Result
	add := func(r Result) { out = append(out, r) }
	// The same through the agent-side store and a workspace on it.
	r, err := ws.Read(ctx, "a.txt", llmfs.ReadOptions{Offset: 1, Limit: llmfs.NoLimit})
	add(readResult("read", r, err))
	r, err = ws.Read(ctx, "b.txt", llmfs.ReadOptions{Limit: llmfs.NoLimit})
	add(readResult("read b", r, err))
	r, err = ws.Read(ctx, "a.txt", llmfs.ReadOptions{Offset: 2, Limit: 2})
	add(readResult("read line+limit", r, err))
	r, err = ws.Read(ctx, "nope.txt", llmfs.ReadOptions{})
	add(readResult("read missing", r, err))
	r, err = ws.Read(ctx, "link-out", llmfs.ReadOptions{})
	add(readResult("read symlink out", r, err))
	r, err = ws.Read(ctx, "../outside/secret.txt", llmfs.ReadOptions{})
	add(readResult("read outside", r, err))
	_, err = ws.Write(ctx, "store-new/n.txt", "via store\n", llmfs.WriteOptions{})
	add(resultOf("write nested", "", err))
	_, err = ws.Write(ctx, "store-empty.txt", "", llmfs.WriteOptions{})
	add(resultOf("write empty", "", err))
	_, err = ws.Write(ctx, "b.txt", "store overwrite\n", llmfs.WriteOptions{})
	add(resultOf("write overwrite", "", err))
	_, err = ws.Write(ctx, "b.txt", "appended\n", llmfs.WriteOptions{Mode: llmfs.AppendTo})
	add(resultOf("write append", "", err))
	_, err = ws.Write(ctx, "a.txt", "x", llmfs.WriteOptions{Mode: llmfs.Create})
	add(resultOf("write create existing", "", err))
	_, err = ws.Edit(ctx, "a.txt", "three", "THREE", false)
	add(resultOf("edit", "", err))
	list, err := ws.List(ctx, ".")
	names := []string{}
	for _, e := range list {
		names = append(names, e.Name)
	}
	add(resultOf("list", strings.Join(names, ","), err))
	return out
}

// concurrentCases sends many reads and writes at once on one connection.
func (p *Peer) concurrentCases(ctx context.Context, abs func(string) string) []Result {
	var out []Result
	add := func(r Result) { out = append(out, r) }
	// Many requests in flight at once on one connection, reads and writes mixed.
	const n = 64
	var wg sync.WaitGroup
	errs := make([]string, n)
	for i := range n {
		wg.Go(func() {
			if i%4 == 3 {
				body := fmt.Sprintf("written %d\n", i)
				if err := p.conn.Call(ctx, acp.MethodWriteTextFile, &acp.WriteTextFileRequest{SessionID: SessionID, Path: abs(fmt.Sprintf("w/%d.txt", i)), Content: body}, nil); err != nil {
					errs[i] = err.Error()
				}
				return
			}
			var res acp.ReadTextFileResponse
			err := p.conn.Call(ctx, acp.MethodReadTextFile, map[string]any{"sessionId": SessionID, "path": abs(fmt.Sprintf("c/%d.txt", i))}, &res)
			if want := strings.Repeat(fmt.Sprintf("file %d\n", i), 1000+i); err != nil || res.Content != want {
				errs[i] = fmt.Sprintf("read %d: %d bytes, %v", i, len(res.Content), err)
			}
		})
	}
	wg.Wait()
	var bad []string
	for _, e := range errs {
		if e != "" {
			bad = append(bad, e)
		}
	}
	add(Result{Name: "concurrent", Content: strings.Join(bad, "; ")})
	return out
}
