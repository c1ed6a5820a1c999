//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs/internal/browsertest"
	"github.com/llmfs/llmfs/mcpserver"
)

// appHostPage plays an MCP Apps host: it frames the view and answers its JSON-RPC over
// postMessage, ui/initialize itself and tools/call by POSTing the call to /call, where the
// test runs it on the real reviewer. Every message the view sent is kept in hostLog. The
// frame is same-origin (allow-same-origin) only so that the test can click in it.
const appHostPage = `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe id="app" src="/app" sandbox="allow-scripts allow-same-origin" style="width:900px;height:700px"></iframe>
<script>
window.hostLog = [];
const frame = document.getElementById("app");
window.addEventListener("message", async (ev) => {
  if (ev.source !== frame.contentWindow) return;
  const m = ev.data;
  window.hostLog.push(m);
  if (m.id === undefined) return;
  const reply = (x) => frame.contentWindow.postMessage(Object.assign({jsonrpc: "2.0", id: m.id}, x), "*");
  if (m.method === "ui/initialize") {
    reply({result: {protocolVersion: "2026-01-26", hostInfo: {name: "test-host", version: "0"},
      hostCapabilities: {serverTools: {}}, hostContext: {theme: "light"}}});
  } else if (m.method === "tools/call") {
    const r = await fetch("/call", {method: "POST", body: JSON.stringify(m.params)});
    reply(r.ok ? {result: await r.json()} : {error: {code: -32603, message: await r.text()}});
  } else {
    reply({error: {code: -32601, message: "no " + m.method}});
  }
});
</script>`

// appHost serves the host page, the view (as the reviewer's resources/read gave it) and
// the tools/call proxy to the reviewer.
func appHost(t *testing.T, reviewer *mcp.ClientSession) string {
	t.Helper()
	read, err := reviewer.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.ReviewAppURI})
	if err != nil {
		t.Fatal(err)
	}
	page := read.Contents[0].Text
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(appHostPage))
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /app", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	})
	mux.HandleFunc("POST /call", func(w http.ResponseWriter, r *http.Request) {
		var p mcp.CallToolParams
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := reviewer.CallTool(r.Context(), &p)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		json.NewEncoder(w).Encode(res)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// appBrowser is a headless Chromium whose page errors fail the test.
type appBrowser struct {
	t    *testing.T
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

func startAppBrowser(t *testing.T) *appBrowser {
	t.Helper()
	exe := browsertest.Chromium(t, "the review app's browser tests")
	actx, acancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := chromedp.NewContext(actx)
	b := &appBrowser{t: t, ctx: ctx}
	t.Cleanup(func() {
		chromedp.Cancel(ctx)
		cancel()
		acancel()
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, e := range b.errs {
			t.Errorf("browser console: %s", e)
		}
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errs = append(b.errs, m.String()+" "+m.URL)
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *appBrowser) eval(expr string, out any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("(async () => JSON.stringify(await ("+expr+")) ?? \"null\")()", chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			b.t.Fatalf("evaluating %s: %v (%s)", expr, err, s)
		}
	}
}

func (b *appBrowser) wait(what, cond string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(20*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		var page string
		b.eval(`document.getElementById("app").contentDocument?.body?.textContent ?? ""`, &page)
		b.t.Fatalf("waiting for %s (%s): %v\nthe view:\n%s", what, cond, err, page)
	}
}

// TestReviewAppBrowser: issue 35.6, the review view in a host. Headless Chromium loads the
// reviewer's ui://llmfs/review in a page that plays the host and answers the view's
// tools/call with the real reviewer's results. The view lists the agent's pending changes
// with their diffs; Apply writes a.txt on disk, with the version the view showed; Discard
// drops b.txt; a change the agent moved after the view showed it is refused with
// FILE_CHANGED, nothing written; a tool-result from the host redraws the list; a base
// file changed behind the agent is a conflict, its diff shown and the file kept.
func TestReviewAppBrowser(t *testing.T) {
	s := newReviewSetup(t)
	ok(t, s.agent, "file_write", `{"path":"a.txt","content":"one\nTWO\n"}`)
	ok(t, s.agent, "file_write", `{"path":"b.txt","content":"agent\n"}`)
	ok(t, s.agent, "file_write", `{"path":"c.txt","content":"first\n"}`)
	versions := map[string]string{}
	for _, c := range ok(t, s.reviewer, "review_list", `{}`)["changes"].([]any) {
		c := c.(map[string]any)
		versions[c["path"].(string)] = c["version"].(string)
	}

	url := appHost(t, s.reviewer)
	b := startAppBrowser(t)
	if _, err := chromedp.Run(b.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	const doc = `document.getElementById("app").contentDocument`
	b.wait("the pending changes", doc+`?.querySelectorAll("#changes li").length === 3`)
	var view string
	b.eval(doc+`.getElementById("changes").textContent`, &view)
	for _, want := range []string{"a.txt", "modified", "-two", "+TWO", "b.txt", "+agent", "c.txt", "created", "version " + versions["a.txt"]} {
		if !strings.Contains(view, want) {
			t.Errorf("the view has no %q:\n%s", want, view)
		}
	}

	// The agent moves c.txt on: the view still shows (and sends) the old version.
	ok(t, s.agent, "file_write", `{"path":"c.txt","content":"second\n"}`)
	b.eval(doc+`.querySelector('li[data-path="c.txt"] button[data-action="apply"]').click()`, nil)
	b.wait("the refusal", doc+`.getElementById("status").textContent.includes("FILE_CHANGED")`)
	if _, err := os.Stat(filepath.Join(s.dir, "c.txt")); err == nil {
		t.Errorf("c.txt applied at a version that moved")
	}

	b.eval(doc+`.querySelector('li[data-path="a.txt"] button[data-action="apply"]').click()`, nil)
	b.wait("a.txt applied", doc+`.getElementById("status").textContent.startsWith("Applied a.txt") && !`+doc+`.querySelector('li[data-path="a.txt"]')`)
	if got, _ := os.ReadFile(filepath.Join(s.dir, "a.txt")); string(got) != "one\nTWO\n" {
		t.Errorf("a.txt on disk after Apply = %q", got)
	}
	b.eval(doc+`.querySelector('li[data-path="b.txt"] button[data-action="discard"]').click()`, nil)
	b.wait("b.txt discarded", doc+`.getElementById("status").textContent.startsWith("Discarded b.txt") && !`+doc+`.querySelector('li[data-path="b.txt"]')`)
	if got, _ := os.ReadFile(filepath.Join(s.dir, "b.txt")); string(got) != "B\n" {
		t.Errorf("b.txt on disk after Discard = %q", got)
	}
	if got := mustJSON(ok(t, s.reviewer, "review_list", `{}`)["changes"]); strings.Contains(got, "a.txt") || strings.Contains(got, "b.txt") || !strings.Contains(got, "c.txt") {
		t.Errorf("pending after the view's apply and discard = %s", got)
	}

	// A review tool ran in the chat (the host says so): the view redraws.
	ok(t, s.agent, "file_write", `{"path":"d.txt","content":"D\n"}`)
	b.eval(`document.getElementById("app").contentWindow.postMessage({jsonrpc: "2.0", method: "ui/notifications/tool-result", params: {content: []}}, "*")`, nil)
	b.wait("the redraw", doc+`.querySelector('li[data-path="d.txt"]') !== null`)

	// The base's c.txt changed behind the agent: a conflict, shown with its diff, the host's file kept.
	os.WriteFile(filepath.Join(s.dir, "c.txt"), []byte("human\n"), 0o644)
	b.eval(doc+`.querySelector('li[data-path="c.txt"] button[data-action="apply"]').click()`, nil)
	b.wait("the conflict", doc+`.getElementById("status").textContent.startsWith("c.txt: FILE_CHANGED") && `+doc+`.querySelector('li[data-path="c.txt"] pre.failure')?.textContent.includes("human")`)
	if got, _ := os.ReadFile(filepath.Join(s.dir, "c.txt")); string(got) != "human\n" {
		t.Errorf("c.txt on disk after a conflicting Apply = %q", got)
	}

	// What the view sent: the handshake first, and apply with the version it showed.
	var log []map[string]any
	b.eval(`window.hostLog`, &log)
	if len(log) < 2 || log[0]["method"] != "ui/initialize" || log[1]["method"] != "ui/notifications/initialized" {
		t.Errorf("the view's first messages = %s", mustJSON(log[:min(2, len(log))]))
	}
	applied := false
	for _, m := range log {
		p, _ := m["params"].(map[string]any)
		if m["method"] == "tools/call" && p["name"] == "review_apply" && mustJSON(p["arguments"]) == mustJSON(map[string]any{"paths": []string{"a.txt"}, "version": versions["a.txt"]}) {
			applied = true
		}
	}
	if !applied {
		t.Errorf("no tools/call of review_apply a.txt at version %s in %s", versions["a.txt"], mustJSON(log))
	}
}
