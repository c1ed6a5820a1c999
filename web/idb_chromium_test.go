//go:build !js && !wasip1

package web_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/llmfs/llmfs/internal/testdeadline"
	"github.com/llmfs/llmfs/web"
)

// runnerHTML runs a Go test binary built for js/wasm in the page, collecting what it
// writes to stdout and stderr, and its exit code.
const runnerHTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
<script src="wasm_exec.js"></script>
<script>
(async () => {
	const dec = new TextDecoder();
	let out = "";
	globalThis.fs.writeSync = (fd, buf) => { out += dec.decode(buf); return buf.length; };
	const go = new Go();
	go.argv = ["idb.test", "-test.v", "-test.count=1"];
	go.exit = (code) => { window.testExit = code; };
	try {
		const { instance } = await WebAssembly.instantiateStreaming(fetch("idb.test.wasm"), go.importObject);
		await go.run(instance);
	} catch (e) {
		out += "\nrunner: " + e;
		window.testExit ??= 1;
	}
	window.testOutput = out;
	window.testDone = true;
})();
</script></body></html>`

// TestStoreInChromium runs store/idb's tests (the storetest conformance suite included)
// in headless Chromium, against the browser's real IndexedDB rather than fake-indexeddb,
// whose transaction lifetimes are the ones that matter.
func TestStoreInChromium(t *testing.T) {
	exe := chromium(t)
	dir, err := web.ModuleDir()
	if err != nil {
		t.Skip(err)
	}
	out := t.TempDir()
	ctx, cancel := testdeadline.Context(t, 30*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "test", "-c", "-o", filepath.Join(out, "idb.test.wasm"), "./store/idb")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building store/idb's tests: %v\n%s", err, msg)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	execJS := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(runnerHTML))
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, execJS) })
	mux.HandleFunc("/idb.test.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, filepath.Join(out, "idb.test.wasm"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := startBrowser(t, exe, t.TempDir())
	b.run("loading the test runner", chromedp.Navigate(srv.URL+"/"))
	get(b, "running the tests", chromedp.Poll[bool]("window.testDone === true", chromedp.WithPollingTimeout(testdeadline.Remaining(t, 20*time.Minute))))
	var res struct {
		Exit   int    `json:"exit"`
		Output string `json:"output"`
	}
	b.eval("({exit: window.testExit ?? -1, output: window.testOutput})", &res)
	passed := strings.Count(res.Output, "--- PASS")
	if res.Exit != 0 || !strings.Contains(res.Output, "\nPASS") {
		t.Fatalf("store/idb's tests in Chromium exited with %d:\n%s", res.Exit, res.Output)
	}
	t.Logf("store/idb's tests pass in Chromium's IndexedDB (%d tests and subtests)", passed)
}
