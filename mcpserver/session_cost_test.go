//go:build !js && !wasip1

package mcpserver_test

import (
	"bytes"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
)

// Issue 12.7: an idle HTTP session was said to cost "a few kilobytes"; it cost about
// 30 KB. This measures the heap and goroutines that sessions opened and left idle take
// (initialize and the initialized notification, raw, as a client that vanishes would),
// and holds the figure the package documentation gives.
func TestHTTPSessionCost(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	ws, err := host.Open(&llmfs.Options{Root: tempDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mcpserver.NewHTTPHandler(srv, nil)}
	go hs.Serve(ln)
	defer hs.Close()
	url := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{}}
	post := func(session, body string) string {
		req, _ := http.NewRequest("POST", url, bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode >= 300 {
			t.Fatalf("status %s", res.Status)
		}
		return res.Header.Get("Mcp-Session-Id")
	}
	writeFile(t, filepath.Join(ws.Root(), "f.txt"), "one line\n")
	open := func(n int, call bool) {
		for range n {
			id := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
			post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			if call {
				post(id, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"f.txt"}}}`)
			}
		}
		client.CloseIdleConnections()
	}
	measure := func() (uint64, int) {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc + m.StackInuse, runtime.NumGoroutine()
	}
	open(50, true) // warm up
	const n = 1000
	for _, call := range []bool{false, true} {
		h0, g0 := measure()
		open(n, call)
		h1, g1 := measure()
		per := (int64(h1) - int64(h0)) / n
		t.Logf("an idle HTTP session (a call made: %v): %d bytes of heap and stack, %.1f goroutines", call, per, float64(g1-g0)/n)
		if per > 32<<10 {
			t.Errorf("an idle session costs %d bytes; the documentation says at most 32 KiB", per)
		}
	}
}
