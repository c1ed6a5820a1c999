//go:build !js && !wasip1

package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/llmfs/llmfs/internal/browsertest"
	"github.com/llmfs/llmfs/internal/testdeadline"
	"github.com/llmfs/llmfs/web"
)

// chromium is the browser the tests of package web drive (see browsertest.Chromium).
func chromium(t *testing.T) string {
	t.Helper()
	return browsertest.Chromium(t, "the browser tests of package web")
}

var (
	buildOnce   sync.Once
	builtAssets *web.Assets
	buildErr    error
)

// sourceBuild builds llmfs.wasm from the source tree once per test binary: the browser
// tests run the code under test.
func sourceBuild(t *testing.T) *web.Assets {
	t.Helper()
	if testing.Short() {
		t.Skip("builds llmfs.wasm: not in -short mode")
	}
	buildOnce.Do(func() {
		// As long as the run allows: a fixed 5 minutes killed the build on a busy machine.
		ctx, cancel := testdeadline.Context(t, 30*time.Minute)
		defer cancel()
		builtAssets, buildErr = web.Build(ctx)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtAssets
}

// browser is one headless Chromium process on a profile directory.
type browser struct {
	t      *testing.T
	ctx    context.Context
	cancel func()

	mu     sync.Mutex
	errors []string // console errors and uncaught exceptions
}

func startBrowser(t *testing.T, exe, profile string) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	b := &browser{t: t, ctx: ctx}
	var once sync.Once
	b.cancel = func() {
		once.Do(func() {
			chromedp.Cancel(ctx) // closes the browser gracefully, so the profile is flushed
			cancel()
			acancel()
		})
	}
	// Registered after the caller's t.TempDir, so it runs before the profile is removed.
	t.Cleanup(b.cancel)
	// Start the browser and its first tab.
	if err := chromedp.Do(ctx); err != nil {
		b.cancel()
		t.Fatalf("starting %s: %v", exe, err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errors = append(b.errors, m.String()+" "+m.URL)
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// get runs one action that yields a value.
func get[T any](b *browser, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// eval evaluates a JavaScript expression, awaiting it if it is a promise, and decodes its
// JSON.stringify'd value into out.
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	s := get(b, "evaluating "+expr, chromedp.Evaluate[string]("(async () => JSON.stringify(await ("+expr+")))()",
		chromedp.EvalAwaitPromise))
	if out != nil {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			b.t.Fatalf("evaluating %s: %v (%s)", expr, err, s)
		}
	}
}

// waitReady waits until the page (the in-browser console) has started, then opens a
// workspace of its own with llmfs.js's open(opts), a JavaScript object, as any page using
// llmfs.js would: window.llmfsPage is {fs, readyMs}, readyMs the time open took (fetching,
// compiling and starting the .wasm in this realm or a worker, opening the database).
func (b *browser) waitReady(opts string) {
	b.t.Helper()
	get(b, "waiting for the page", chromedp.Poll[bool]("!!(window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error))",
		chromedp.WithPollingTimeout(90*time.Second)))
	var errText *string
	b.eval("window.llmfsConsole.error", &errText)
	if errText != nil {
		b.t.Fatalf("the console failed to start: %s", *errText)
	}
	b.eval(`(async () => {
		const llmfs = await import("./llmfs.js");
		const t0 = performance.now();
		const fs = await llmfs.open(`+opts+`);
		window.llmfsPage = {fs, readyMs: performance.now() - t0};
		return 0;
	})()`, nil)
}

// callResult is what fs.run resolves to.
type callResult struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call runs a tool through the page's fs.run.
func (b *browser) call(tool string, args any) callResult {
	b.t.Helper()
	a, _ := json.Marshal(args)
	var r callResult
	b.eval(fmt.Sprintf("window.llmfsPage.fs.run(%q, %s)", tool, a), &r)
	return r
}

func (b *browser) mustCall(tool string, args any) json.RawMessage {
	b.t.Helper()
	r := b.call(tool, args)
	if !r.OK {
		b.t.Fatalf("%s %v: %+v", tool, args, r.Error)
	}
	return r.Result
}

func (b *browser) noConsoleErrors() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		b.t.Errorf("browser console: %s", e)
	}
	b.errors = nil
}

// readContent reads path with the rtc read tool and returns its numbered content.
func (b *browser) readContent(path string) string {
	b.t.Helper()
	var out struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(b.mustCall("read", map[string]any{"path": path}), &out); err != nil {
		b.t.Fatal(err)
	}
	return out.Content
}

// TestBrowser drives llmfs.js in headless Chromium, on the page the handler serves: writes
// through fs.call survive a reload and a browser restart on the same profile;
// read-before-edit holds; /AGENT.md follows the agent's writes and its default comes back;
// 1,000 files are written and searched; the console stays clean.
func TestBrowser(t *testing.T) {
	exe := chromium(t)
	srv := httptest.NewServer(web.NewHandler(sourceBuild(t)))
	defer srv.Close()
	profile := t.TempDir()
	url := srv.URL + "/"
	const e2e = `{db: "e2e", worker: true}`

	start := time.Now()
	b := startBrowser(t, exe, profile)
	b.run("loading the page", chromedp.Navigate(url))
	b.waitReady(e2e)
	t.Logf("page ready after %v", time.Since(start))

	// The console watcher sees errors (so that its silence below means something).
	b.eval(`(console.error("probe"), 0)`, nil)
	for i := 0; ; i++ {
		b.mu.Lock()
		n := len(b.errors)
		b.errors = nil
		b.mu.Unlock()
		if n > 0 {
			break
		}
		if i == 50 {
			t.Fatal("a console.error call was not seen")
		}
		time.Sleep(20 * time.Millisecond)
	}

	var defs []struct {
		Name string `json:"name"`
	}
	b.eval("window.llmfsPage.fs.tools()", &defs)
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	for _, want := range []string{"ls", "read", "write", "edit"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools() = %v, missing %s", names, want)
		}
	}

	var w struct {
		Path string `json:"path"`
	}
	json.Unmarshal(b.mustCall("write", map[string]any{"path": "/notes/a.txt", "content": "hello\nworld\n"}), &w)
	if w.Path != "/notes/a.txt" {
		t.Errorf("write returned path %q", w.Path)
	}
	// The same JSON error as every face, for a bad call.
	if r := b.call("read", map[string]any{"path": "/missing.txt"}); r.OK || r.Error.Code != "FILE_NOT_FOUND" {
		t.Errorf("reading a missing file: %+v", r)
	}
	if r := b.call("read", map[string]any{"path": "/notes/a.txt", "offset": "1"}); r.OK || r.Error.Code != "INVALID_ARGUMENT" {
		t.Errorf("a string offset: %+v", r)
	}
	// fs.call rejects with an LlmfsError carrying the code.
	var rejected struct {
		Name, Code string
	}
	b.eval(`window.llmfsPage.fs.call("read", {path: "/nope"}).then(() => ({}), (e) => ({name: e.name, code: e.code}))`, &rejected)
	if rejected.Name != "LlmfsError" || rejected.Code != "FILE_NOT_FOUND" {
		t.Errorf("fs.call of a failing tool rejected with %+v", rejected)
	}

	// The raw wasm API refuses arguments that are not a JSON string, rather than running
	// the tool with none.
	var raw struct {
		Code string
	}
	b.eval(`import("./llmfs.js").then((m) => m.load()).then((api) => api.open({db: "raw"})).then((inst) =>
		inst.call("ls", {path: "/nope"}).then((out) => ({code: "resolved " + out}), (e) => ({code: e.code})))`, &raw)
	if raw.Code != "INVALID_ARGUMENT" {
		t.Errorf("the wasm call with an object for argsJSON: %q, want INVALID_ARGUMENT", raw.Code)
	}

	// A reload starts a new session on the same database.
	b.run("reloading", chromedp.Reload())
	b.waitReady(e2e)
	if r := b.call("edit", map[string]any{"path": "/notes/a.txt", "old_string": "world", "new_string": "there"}); r.OK || r.Error.Code != "FILE_NOT_READ" {
		t.Errorf("edit before read in a new session: %+v", r)
	}
	if got := b.readContent("/notes/a.txt"); !strings.Contains(got, "hello") || !strings.Contains(got, "world") {
		t.Errorf("after reload: %q", got)
	}
	b.mustCall("edit", map[string]any{"path": "/notes/a.txt", "old_string": "world", "new_string": "there"})

	var features struct {
		AgentFile bool `json:"agent_file"`
	}
	b.eval("window.llmfsPage.fs.features()", &features)
	if features.AgentFile {
		// /AGENT.md exists; a user's edit survives a reload; "Restore default" undoes it.
		if got := b.readContent("/AGENT.md"); !strings.Contains(got, "read") {
			t.Errorf("the generated /AGENT.md does not mention the read tool: %.200q", got)
		}
		// Issue 13.12: the browser's copy follows the agent's writes, not only page loads.
		b.mustCall("write", map[string]any{"path": "/fresh/new.txt", "content": "new\n"})
		if got := b.readContent("/AGENT.md"); !strings.Contains(got, "`/fresh/`: 1 file") {
			t.Errorf("/AGENT.md after a write does not show /fresh/: %.600q", got)
		}
		b.mustCall("write", map[string]any{"path": "/AGENT.md", "content": "my own notes\n"})
		b.run("reloading", chromedp.Reload())
		b.waitReady(e2e)
		if got := b.readContent("/AGENT.md"); !strings.Contains(got, "my own notes") {
			t.Errorf("a reload overwrote the user's /AGENT.md: %.200q", got)
		}
		b.eval("window.llmfsPage.fs.restoreAgentFile()", nil)
		if got := b.readContent("/AGENT.md"); strings.Contains(got, "my own notes") || !strings.Contains(got, "read") {
			t.Errorf("after restore default: %.200q", got)
		}
	} else {
		t.Log("no /AGENT.md support in this build (package sysfiles)")
	}
	b.noConsoleErrors()
	b.cancel()

	// A new browser process on the same profile still has the files.
	b = startBrowser(t, exe, profile)
	b.run("loading the page after a restart", chromedp.Navigate(url))
	b.waitReady(e2e)
	if got := b.readContent("/notes/a.txt"); !strings.Contains(got, "hello") || !strings.Contains(got, "there") {
		t.Errorf("after a browser restart: %q", got)
	}

	t.Logf("restarted and read back after %v", time.Since(start))
	// 1,000 files, every seventh with a needle, written from the page in one go.
	var n int
	b.eval(`(async () => {
		const fs = window.llmfsPage.fs;
		await Promise.all(Array.from({length: 1000}, (_, i) =>
			fs.call("write", {path: "/many/f" + i + ".txt", content: "file " + i + "\n" + (i % 7 === 0 ? "a needle here\n" : "hay\n")})));
		return (await fs.call("ls", {path: "/many"})).entries.length;
	})()`, &n)
	if n != 1000 {
		t.Errorf("ls /many: %d entries, want 1000", n)
	}
	t.Logf("1,000 files written after %v", time.Since(start))
	b.eval("window.llmfsPage.fs.tools()", &defs)
	hasGrep := slices.ContainsFunc(defs, func(d struct {
		Name string `json:"name"`
	}) bool {
		return d.Name == "grep"
	})
	if hasGrep {
		out := string(b.mustCall("grep", map[string]any{"pattern": "needle", "path": "/many", "output_mode": "files_with_matches", "head_limit": 0}))
		for _, i := range []int{0, 7, 994} {
			if !strings.Contains(out, fmt.Sprintf("/many/f%d.txt", i)) {
				t.Errorf("grep needle: no f%d.txt in %.300s", i, out)
			}
		}
		if strings.Contains(out, "/many/f1.txt") {
			t.Errorf("grep needle lists f1.txt: %.300s", out)
		}
	} else {
		t.Log("no grep tool in this build (package search not merged yet): checked writing and listing 1,000 files instead")
		if got := b.readContent("/many/f994.txt"); !strings.Contains(got, "needle") {
			t.Errorf("/many/f994.txt = %q", got)
		}
	}

	// The workspace's own quota (branch policy), or a clear refusal of the option.
	var features2 struct {
		Policy bool `json:"policy"`
	}
	b.eval("window.llmfsPage.fs.features()", &features2)
	var quotaRes struct {
		Open  string          `json:"open"`
		Write json.RawMessage `json:"write"`
	}
	b.eval(`(async () => {
		const llmfs = await import("/llmfs.js");
		let fs;
		try {
			fs = await llmfs.open({db: "e2e-quota", quota: {maxBytes: 1000}});
		} catch (e) {
			return {open: e.code};
		}
		const write = await fs.run("write", {path: "/big.txt", content: "x".repeat(2000)});
		await fs.close();
		return {open: "ok", write};
	})()`, &quotaRes)
	if features2.Policy {
		if quotaRes.Open != "ok" || !strings.Contains(string(quotaRes.Write), "QUOTA_EXCEEDED") {
			t.Errorf("a 2,000-byte write under a 1,000-byte quota: %+v %s", quotaRes, quotaRes.Write)
		}
	} else if quotaRes.Open != "INVALID_ARGUMENT" {
		t.Errorf("open with a quota in a build without policy: %+v, want INVALID_ARGUMENT", quotaRes)
	}

	// The same in-page (no worker).
	b.run("loading the page again", chromedp.Navigate(url))
	b.waitReady(`{db: "e2e", worker: false, mode: "full"}`)
	if got := b.readContent("/many/f7.txt"); !strings.Contains(got, "needle") {
		t.Errorf("in-page read of /many/f7.txt = %q", got)
	}
	b.checkFetch("in the page")
	b.noConsoleErrors()
}

// TestBrowserFetch checks fs.fetch, the console's HTTP API answered by llmfs.wasm, in a
// worker (as the in-browser console uses it) and in the page, in mode full (the console's:
// a person may delete).
func TestBrowserFetch(t *testing.T) {
	exe := chromium(t)
	srv := httptest.NewServer(web.NewHandler(sourceBuild(t)))
	defer srv.Close()
	b := startBrowser(t, exe, t.TempDir())
	b.run("loading the page", chromedp.Navigate(srv.URL+"/"))
	b.waitReady(`{db: "fetch-worker", worker: true, mode: "full"}`)
	b.checkFetch("in a worker")
	b.waitReady(`{db: "fetch-page", worker: false, mode: "full"}`)
	b.checkFetch("in the page")
	b.noConsoleErrors()
}

// checkFetch checks window.llmfsPage.fs.fetch: JSON answers with their status, an error
// answer with its code, the feed streamed (a change made after the request started arrives
// on it, as actor "web"), and arguments of the wrong type refused with INVALID_ARGUMENT.
func (b *browser) checkFetch(where string) {
	b.t.Helper()
	var got struct {
		Actor, Root, Code, Type, Feed, Bad, Grep string
		Missing, Put, Moved, Deleted             int
	}
	b.eval(`(async () => {
		const fs = window.llmfsPage.fs;
		const info = await (await fs.fetch("api/info")).json();
		const missing = await fs.fetch("api/read?path=no/such.txt");
		const code = (await missing.json()).code;
		const last = (await (await fs.fetch("api/history/changes?limit=1")).json())[0]?.id ?? 0;
		const feed = await fs.fetch("api/history/events?after=" + last);
		const reader = feed.body.pipeThrough(new TextDecoderStream()).getReader();
		const put = await fs.fetch("api/file?path=streamed.txt", {method: "PUT", headers: {"Content-Type": "application/json"},
			body: JSON.stringify({content: "streamed\n"})});
		let buf = "";
		while (!buf.includes("streamed.txt")) {
			const {value, done} = await reader.read();
			if (done) break;
			buf += value;
		}
		await reader.cancel();
		const grep = await (await fs.fetch("api/grep?pattern=^streamed$")).json();
		const post = (path, body) => fs.fetch("api/" + path, {method: "POST", body: JSON.stringify(body)}).then((r) => r.status);
		const moved = await post("move", {from: "streamed.txt", to: "gone/streamed.txt"});
		const deleted = await post("delete", {path: "gone/streamed.txt"});
		const bad = await fs.fetch("api/info", {method: 7}).then(() => "resolved", (e) => e.code);
		return {actor: info.actor, root: info.root, missing: missing.status, code, type: feed.headers.get("Content-Type"),
			put: put.status, feed: buf, bad, grep: grep.map((h) => h.path + ":" + h.line).join(" "), moved, deleted};
	})()`, &got)
	if got.Actor != "web" || got.Root != "/" {
		b.t.Errorf("%s: api/info says actor %q root %q", where, got.Actor, got.Root)
	}
	if got.Missing != 404 || got.Code != "FILE_NOT_FOUND" {
		b.t.Errorf("%s: reading a missing file: %d %s", where, got.Missing, got.Code)
	}
	if got.Put != 200 || got.Type != "text/event-stream" || !strings.Contains(got.Feed, `"actor":"web"`) || !strings.Contains(got.Feed, "streamed.txt") {
		b.t.Errorf("%s: the feed (%s) after a write (%d): %q", where, got.Type, got.Put, got.Feed)
	}
	if got.Grep != "streamed.txt:1" || got.Moved != 200 || got.Deleted != 200 {
		b.t.Errorf("%s: grep found %q; move %d, delete %d", where, got.Grep, got.Moved, got.Deleted)
	}
	if got.Bad != "INVALID_ARGUMENT" {
		b.t.Errorf("%s: fetch with a number for the method: %q, want INVALID_ARGUMENT", where, got.Bad)
	}
}
