//go:build !js && !wasip1

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// plainClient is a minimal MCP client over a server's standard input and output: one
// JSON-RPC line a call, answers matched by id. It asks every server for one protocol
// version, 2025-06-18, and decodes of a tool result only isError and the text content, so
// it costs the same for every server. (The go-sdk client negotiates 2026-07-28 with a
// server that has it, llmfs, and then sends the client's capabilities in each request's
// _meta, which it encodes and the server decodes on every call; the reference server
// negotiates an older version, so that client costs the two servers differently.)
type plainClient struct {
	wmu  sync.Mutex // guards in and next
	in   io.WriteCloser
	next int64

	mu      sync.Mutex
	pending map[int64]chan answer
	err     error // set once the server's output ends
}

// answer is a response: its result, or its error.
type answer struct {
	result json.RawMessage
	err    error
}

// plainVersion is the protocol version plainClient asks for.
const plainVersion = "2025-06-18"

// startPlain starts cmd and initializes an MCP session with it.
func startPlain(cmd *exec.Cmd) (*plainClient, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &plainClient{in: in, pending: map[int64]chan answer{}}
	go c.readLoop(out)
	if _, err := c.request("initialize", map[string]any{
		"protocolVersion": plainVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "mcpbench", "version": "v0"},
	}); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return c, c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

// readLoop hands each response to the call waiting for it.
func (c *plainClient) readLoop(out io.Reader) {
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			c.mu.Lock()
			c.err = fmt.Errorf("the server's output ended: %v", err)
			for id, ch := range c.pending {
				ch <- answer{err: c.err}
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
		var msg struct {
			ID     *int64          `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil || msg.Method != "" {
			continue // a notification or a request of the server's: mcpbench needs none
		}
		c.mu.Lock()
		ch := c.pending[*msg.ID]
		delete(c.pending, *msg.ID)
		c.mu.Unlock()
		switch {
		case ch == nil:
		case msg.Error != nil:
			ch <- answer{err: fmt.Errorf("error response: %s", msg.Error.Message)}
		default:
			ch <- answer{result: msg.Result}
		}
	}
}

func (c *plainClient) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// request sends a call and waits for its result.
func (c *plainClient) request(method string, params any) (json.RawMessage, error) {
	ch := make(chan answer, 1)
	c.wmu.Lock()
	c.next++
	id := c.next
	c.wmu.Unlock()
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	a := <-ch
	return a.result, a.err
}

// callTool calls a tool and returns its result with the text content and isError only.
func (c *plainClient) callTool(name string, args map[string]any) (*mcp.CallToolResult, error) {
	raw, err := c.request("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	var r struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{IsError: r.IsError}
	for _, c := range r.Content {
		if c.Type == "text" {
			res.Content = append(res.Content, &mcp.TextContent{Text: c.Text})
		}
	}
	return res, nil
}

// listTools returns the server's tools: names and input schemas.
func (c *plainClient) listTools() ([]*mcp.Tool, error) {
	raw, err := c.request("tools/list", map[string]any{})
	if err != nil {
		return nil, err
	}
	var r struct {
		Tools []*mcp.Tool `json:"tools"`
	}
	return r.Tools, json.Unmarshal(raw, &r)
}

func (c *plainClient) close() error { return c.in.Close() }
