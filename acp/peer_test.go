//go:build !js && !wasip1

package acp

// This file runs the test binary itself as an ACP agent in a second process, so that the
// client side and the agent side meet over real pipes: TestMain turns into the agent when
// LLMFS_ACP_PEER=agent.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/testcache"
	"github.com/llmfs/llmfs/store"
)

func TestMain(m *testing.M) {
	if os.Getenv("LLMFS_ACP_PEER") == "agent" {
		os.Exit(runAgentPeer())
	}
	restore := testcache.Isolate()
	code := m.Run()
	restore()
	os.Exit(code)
}

// peerResult is one observation the agent peer reports.
type peerResult struct {
	Name    string `json:"name"`
	Content string `json:"content,omitempty"`
	Code    int    `json:"code,omitempty"`    // JSON-RPC error code of a direct call
	FSCode  string `json:"fsCode,omitempty"`  // llmfs error code of a store-level call
	Message string `json:"message,omitempty"` // error message
	URI     string `json:"uri,omitempty"`     // data.uri of an error
}

// agentPeer is the Go agent the tests run in a subprocess.
type agentPeer struct {
	conn *Conn
	mu   sync.Mutex
	caps FileSystemCapability
	cwd  string

	cancelled chan struct{} // closed by session/cancel

	resultPath string // where the results go
	outside    string // a file outside the root
}

func runAgentPeer() int {
	p := &agentPeer{resultPath: os.Getenv("LLMFS_ACP_RESULT"), outside: os.Getenv("LLMFS_ACP_OUTSIDE")}
	p.connect(os.Stdin, os.Stdout)
	if err := p.conn.Wait(); err != nil {
		fmt.Fprintln(os.Stderr, "agent peer:", err)
		return 1
	}
	return 0
}

const peerSession = "go-peer-session"

// connect starts the peer's connection. It holds p.mu while it sets p.conn, and handle
// takes p.mu first, so no handler sees p.conn unset.
func (p *agentPeer) connect(r io.Reader, w io.Writer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conn = NewConn(r, w, p.handle)
}

func (p *agentPeer) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	p.mu.Lock() // wait for connect
	//lint:ignore SA2001 the empty section is the point: connect holds p.mu while it sets p.conn
	p.mu.Unlock()
	switch method {
	case MethodInitialize:
		var req InitializeRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.caps = req.ClientCapabilities.FS
		p.mu.Unlock()
		return &InitializeResponse{ProtocolVersion: ProtocolVersion, AgentCapabilities: map[string]any{}, AuthMethods: []any{}}, nil
	case MethodSessionNew:
		var req NewSessionRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.cwd = req.Cwd
		p.mu.Unlock()
		return &NewSessionResponse{SessionID: peerSession}, nil
	case MethodSessionPrompt:
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
	case MethodSessionCancel:
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
	return nil, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + method}
}

func (p *agentPeer) say(ctx context.Context, text string) {
	p.conn.Notify(ctx, MethodSessionUpdate, map[string]any{
		"sessionId": peerSession,
		"update":    map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]string{"type": "text", "text": text}},
	})
}

func (p *agentPeer) workspace() (*llmfs.Workspace, *AgentStore, error) {
	p.mu.Lock()
	caps, cwd := p.caps, p.cwd
	p.mu.Unlock()
	st, err := NewAgentStore(AgentStoreOptions{Conn: p.conn, SessionID: peerSession, Root: cwd, Capabilities: caps})
	if err != nil {
		return nil, nil, err
	}
	return llmfs.New(st, &llmfs.Options{Root: cwd, Limits: rawLimits}), st, nil
}

// direct calls fs/read_text_file on the client and records the outcome.
func (p *agentPeer) direct(ctx context.Context, name string, params map[string]any) peerResult {
	params["sessionId"] = peerSession
	var res ReadTextFileResponse
	err := p.conn.Call(ctx, MethodReadTextFile, params, &res)
	return resultOf(name, res.Content, err)
}

func (p *agentPeer) directWrite(ctx context.Context, name, path, content string) peerResult {
	err := p.conn.Call(ctx, MethodWriteTextFile, &WriteTextFileRequest{SessionID: peerSession, Path: path, Content: content}, nil)
	return resultOf(name, "", err)
}

func resultOf(name, content string, err error) peerResult {
	r := peerResult{Name: name, Content: content}
	var e *Error
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

func (p *agentPeer) scenario(ctx context.Context, name string) ([]peerResult, error) {
	ws, st, err := p.workspace()
	if err != nil {
		return nil, err
	}
	cwd := ws.Root()
	abs := func(rel string) string { return cwd + "/" + rel }
	var out []peerResult
	add := func(r peerResult) { out = append(out, r) }
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
	case "big":
		f, err := st.Open(ctx, "big.txt")
		if err != nil {
			add(resultOf("read big", "", err))
			break
		}
		b, _ := io.ReadAll(f)
		f.Close()
		add(peerResult{Name: "read big", Content: fmt.Sprintf("%d %s", len(b), store.Hash(b))})
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
		// Many requests in flight at once on one connection, reads and writes mixed.
		const n = 64
		var wg sync.WaitGroup
		errs := make([]string, n)
		for i := range n {
			wg.Go(func() {
				if i%4 == 3 {
					body := fmt.Sprintf("written %d\n", i)
					if err := p.conn.Call(ctx, MethodWriteTextFile, &WriteTextFileRequest{SessionID: peerSession, Path: abs(fmt.Sprintf("w/%d.txt", i)), Content: body}, nil); err != nil {
						errs[i] = err.Error()
					}
					return
				}
				var res ReadTextFileResponse
				err := p.conn.Call(ctx, MethodReadTextFile, map[string]any{"sessionId": peerSession, "path": abs(fmt.Sprintf("c/%d.txt", i))}, &res)
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
		add(peerResult{Name: "concurrent", Content: strings.Join(bad, "; ")})
	case "permission":
		var res struct {
			Outcome struct {
				Outcome  string `json:"outcome"`
				OptionID string `json:"optionId"`
			} `json:"outcome"`
		}
		err := p.conn.Call(ctx, MethodRequestPermission, map[string]any{
			"sessionId": peerSession,
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
		p.conn.Notify(ctx, MethodSessionUpdate, map[string]any{"sessionId": peerSession, "update": map[string]any{
			"sessionUpdate": "tool_call", "toolCallId": "t\r1", "title": "Read\n[fs] created /etc/shadow (1 bytes)", "kind": "read", "status": "pending"}})
		p.conn.Notify(ctx, MethodSessionUpdate, map[string]any{"sessionId": peerSession, "update": map[string]any{
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

func readResult(name string, r *llmfs.ReadResult, err error) peerResult {
	if err != nil {
		return resultOf(name, "", err)
	}
	return peerResult{Name: name, Content: r.Content}
}
