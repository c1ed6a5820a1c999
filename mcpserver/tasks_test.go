//go:build !js && !wasip1

package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
)

// pipeRPC serves srv with [mcpserver.ServeStdio] over pipes and returns a raw JSON-RPC
// caller speaking 2026-07-28 (no initialize: each request carries its _meta), declaring
// the client extensions exts.
func pipeRPC(t *testing.T, srv *mcpserver.Server, exts ...string) rpcFunc {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		mcpserver.ServeStdio(ctx, srv, &mcpserver.StdioTransport{In: inR, Out: outW})
		outW.Close()
		close(done)
	}()
	t.Cleanup(func() { inW.Close(); cancel(); <-done })
	lines := make(chan map[string]any, 100)
	go func() {
		r := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			var m map[string]any
			if json.Unmarshal(line, &m) == nil {
				lines <- m
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	extensions := map[string]any{}
	for _, e := range exts {
		extensions[e] = map[string]any{}
	}
	id := 0
	return func(method string, params any) (map[string]any, map[string]any) {
		t.Helper()
		id++
		p, _ := params.(map[string]any)
		if p == nil {
			p = map[string]any{}
		}
		p["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": extensions},
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": p})
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		for {
			select {
			case m, ok := <-lines:
				if !ok {
					t.Fatal("the server ended")
				}
				if m["id"] == float64(id) && m["method"] == nil {
					res, _ := m["result"].(map[string]any)
					e, _ := m["error"].(map[string]any)
					return res, e
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s: no answer", method)
			}
		}
	}
}

// poll calls tasks/get until the task leaves "working", and returns its last state.
func poll(t *testing.T, call rpcFunc, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		res, e := call("tasks/get", map[string]any{"taskId": id})
		if e != nil {
			t.Fatalf("tasks/get: %v", e)
		}
		if res["resultType"] != "complete" || res["taskId"] != id {
			t.Fatalf("tasks/get: %v", res)
		}
		if res["status"] != "working" {
			return res
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the task is still working")
	return nil
}

const slowGrep = `{"pattern":"(?i)z[0-9]{4}q|x{3}y","output_mode":"content","head_limit":0}`

// Issue 39.5: a long call of a client that declares the tasks extension (SEP-2663) is
// answered as a task; tasks/get gives its state, then its result; tasks/cancel stops it.
// Without the extension, or once it ends in time, the call is answered as usual.
func TestLongCallAsTask(t *testing.T) {
	dir := bigTree(t, 100, 256<<10) // 25 MiB
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{TaskAfter: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	call := pipeRPC(t, srv, mcpserver.TasksExtension)
	res, e := call("server/discover", nil)
	if exts, _ := res["capabilities"].(map[string]any)["extensions"].(map[string]any); e != nil || exts[mcpserver.TasksExtension] == nil {
		t.Errorf("discover: no tasks extension: %v, %v", res, e)
	}

	args := json.RawMessage(slowGrep)
	res, e = call("tools/call", map[string]any{"name": "file_grep", "arguments": args})
	if e != nil || res["resultType"] != "task" || res["status"] != "working" || res["taskId"] == nil || res["ttlMs"] == nil {
		t.Fatalf("a long grep: %v, %v", res, e)
	}
	id := res["taskId"].(string)
	done := poll(t, call, id)
	result, _ := done["result"].(map[string]any)
	if done["status"] != "completed" || result == nil || result["isError"] == true || result["structuredContent"] == nil {
		t.Fatalf("the finished task: %v", done)
	}

	// Cancelled.
	res, e = call("tools/call", map[string]any{"name": "file_grep", "arguments": args})
	if e != nil || res["resultType"] != "task" {
		t.Fatalf("a long grep: %v, %v", res, e)
	}
	id = res["taskId"].(string)
	start := time.Now()
	if res, e = call("tasks/cancel", map[string]any{"taskId": id}); e != nil || res["resultType"] != "complete" {
		t.Fatalf("tasks/cancel: %v, %v", res, e)
	}
	if done = poll(t, call, id); done["status"] != "cancelled" {
		t.Errorf("the cancelled task: %v", done)
	}
	t.Logf("the grep stopped %s after tasks/cancel", time.Since(start))

	if _, e = call("tasks/get", map[string]any{"taskId": "nope"}); e == nil {
		t.Error("tasks/get of an unknown task: no error")
	}
	if _, e = call("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{}}); e != nil {
		t.Errorf("tasks/update: %v", e)
	}

	// A client without the extension: the result itself, and no tasks.
	plain := pipeRPC(t, srv)
	if _, e = plain("tasks/get", map[string]any{"taskId": id}); e == nil || e["code"] != -32021.0 {
		t.Errorf("tasks/get without the extension: %v", e)
	}
	res, e = plain("tools/call", map[string]any{"name": "file_grep", "arguments": args})
	if e != nil || res["resultType"] != "complete" || res["structuredContent"] == nil {
		t.Errorf("a client without the extension: %v, %v", fmtJSON(res), e)
	}
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
