//go:build !js && !wasip1

package mcpserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
)

// initialize opens a session with a raw initialize request and returns the status and
// the session id.
func initialize(t *testing.T, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

// TestMaxSessions checks that a flood of initialize requests cannot pile up sessions
// (each holds a goroutine and memory until its timeout): past the cap a new session gets
// 503, and ending one makes room again.
func TestMaxSessions(t *testing.T) {
	srv, err := mcpserver.New(openWS(t, t.TempDir(), llmfs.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcpserver.NewHTTPHandler(srv, &mcpserver.HTTPOptions{MaxSessions: 3}))
	defer ts.Close()
	var ids []string
	for range 3 {
		code, id := initialize(t, ts.URL)
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize under the cap: status %d, session %q", code, id)
		}
		ids = append(ids, id)
	}
	if code, _ := initialize(t, ts.URL); code != http.StatusServiceUnavailable {
		t.Fatalf("initialize over the cap: status %d, want 503", code)
	}
	req, _ := http.NewRequest("DELETE", ts.URL, nil)
	req.Header.Set("Mcp-Session-Id", ids[0])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		code, _ := initialize(t, ts.URL)
		if code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("initialize after ending a session: status %d, want 200", code)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
