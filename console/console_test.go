package console_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/sysfiles"
)

func request(t *testing.T, method, url, token, body string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func newConsole(t *testing.T) (*llmfs.Workspace, string) {
	t.Helper()
	ws := llmfs.New(mem.New(), &llmfs.Options{Actor: "agent"})
	if _, err := ws.Write(context.Background(), "/a.txt", "one\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(console.Handler(ws, console.Options{Token: "tok"}))
	t.Cleanup(srv.Close)
	return ws, srv.URL
}

// TestConsoleAuth: the page is public, the API needs the bearer token (401 without or with
// a wrong one), and a foreign Host or Origin is refused (403) even with it.
func TestConsoleAuth(t *testing.T) {
	_, url := newConsole(t)
	if code, body := request(t, "GET", url+"/", "", ""); code != 200 || !strings.Contains(body, "console.js") {
		t.Errorf("GET /: %d %.80s", code, body)
	}
	for _, tok := range []string{"", "wrong"} {
		if code, body := request(t, "GET", url+"/api/list", tok, ""); code != 401 || !strings.Contains(body, "UNAUTHENTICATED") {
			t.Errorf("GET /api/list with token %q: %d %s", tok, code, body)
		}
	}
	if code, body := request(t, "GET", url+"/api/list", "tok", ""); code != 200 || !strings.Contains(body, `"a.txt"`) {
		t.Errorf("GET /api/list: %d %s", code, body)
	}
	if code, _ := request(t, "GET", url+"/api/list", "tok", "", "Origin", "https://evil.example"); code != 403 {
		t.Errorf("a foreign Origin: %d, want 403", code)
	}
	req, _ := http.NewRequest("GET", url+"/api/list", nil)
	req.Host = "evil.example"
	req.Header.Set("Authorization", "Bearer tok")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Errorf("a foreign Host: %d, want 403", res.StatusCode)
	}
}

// TestConsoleSaveConflict: a person's save carries the content as loaded; when an agent
// changed the file meanwhile the save is refused (409) and the agent's content stays.
func TestConsoleSaveConflict(t *testing.T) {
	ws, url := newConsole(t)
	ctx := context.Background()
	if _, err := ws.Write(ctx, "/a.txt", "agent's\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	code, body := request(t, "PUT", url+"/api/file?path=/a.txt", "tok", `{"content":"person's\n","base":"one\n"}`)
	if code != 409 || !strings.Contains(body, "FILE_CHANGED") {
		t.Fatalf("a stale save: %d %s, want 409 FILE_CHANGED", code, body)
	}
	if r, _ := ws.Read(ctx, "/a.txt", llmfs.ReadOptions{}); r.Content != "agent's\n" {
		t.Fatalf("the stale save overwrote the file: %q", r.Content)
	}
	code, body = request(t, "PUT", url+"/api/file?path=/a.txt", "tok", `{"content":"person's\n","base":"agent's\n"}`)
	if code != 200 {
		t.Fatalf("a current save: %d %s", code, body)
	}
	cs, err := ws.History().List(ctx, llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 || cs[0].Actor != console.Actor {
		t.Errorf("the newest change %+v, want one by %q", cs, console.Actor)
	}
}

// TestConsoleSystemFiles: the console shows AGENT.md as generated, then as edited after a
// person's edit, and "restore default" makes it generated again.
func TestConsoleSystemFiles(t *testing.T) {
	ctx := context.Background()
	ws := llmfs.New(mem.New(), &llmfs.Options{Actor: "agent"})
	opts := &sysfiles.Options{}
	if _, err := sysfiles.Ensure(ctx, ws, opts); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(console.Handler(ws, console.Options{Token: "tok", System: opts}))
	defer srv.Close()
	state := func() string {
		t.Helper()
		code, body := request(t, "GET", srv.URL+"/api/system", "tok", "")
		if code != 200 {
			t.Fatalf("GET /api/system: %d %s", code, body)
		}
		return strings.TrimSpace(body)
	}
	if got := state(); got != `[{"path":"AGENT.md","state":"generated"}]` {
		t.Fatalf("before any edit: %s", got)
	}
	if code, body := request(t, "PUT", srv.URL+"/api/file?path=/AGENT.md", "tok", `{"content":"mine\n"}`); code != 200 {
		t.Fatalf("editing AGENT.md: %d %s", code, body)
	}
	if got := state(); got != `[{"path":"AGENT.md","state":"edited"}]` {
		t.Fatalf("after an edit: %s", got)
	}
	if code, body := request(t, "POST", srv.URL+"/api/system/restore", "tok", `{"path":"AGENT.md"}`); code != 200 {
		t.Fatalf("restore default: %d %s", code, body)
	}
	if got := state(); got != `[{"path":"AGENT.md","state":"generated"}]` {
		t.Fatalf("after restore default: %s", got)
	}
}

// TestConsoleSystemFilesOff: where the system files are off (a host directory, by
// default), the console shows AGENT.md as off with how to turn it on, and refuses to
// restore it: nothing is written into the person's tree (issue 33 item 10).
func TestConsoleSystemFilesOff(t *testing.T) {
	ws := llmfs.New(mem.New(), &llmfs.Options{Actor: "agent"})
	srv := httptest.NewServer(console.Handler(ws, console.Options{Token: "tok", System: &sysfiles.Options{}, SystemOff: "off here; --agent-md turns it on"}))
	defer srv.Close()
	code, body := request(t, "GET", srv.URL+"/api/system", "tok", "")
	if code != 200 || strings.TrimSpace(body) != `[{"path":"AGENT.md","state":"off","hint":"off here; --agent-md turns it on"}]` {
		t.Fatalf("GET /api/system: %d %s", code, body)
	}
	if code, body := request(t, "POST", srv.URL+"/api/system/restore", "tok", `{"path":"AGENT.md"}`); code != 400 || !strings.Contains(body, "INVALID_ARGUMENT") {
		t.Errorf("restore default of a file that is off: %d %s, want 400 INVALID_ARGUMENT", code, body)
	}
	if _, err := ws.Read(context.Background(), "AGENT.md", llmfs.ReadOptions{}); llmfs.CodeOf(err) != llmfs.CodeFileNotFound {
		t.Errorf("AGENT.md after the refused restore: %v, want none", err)
	}
}
