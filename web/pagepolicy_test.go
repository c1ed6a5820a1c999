//go:build !js && !wasip1

package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/web"
)

// TestDemoPagePolicy: every answer of the demo (as llmfs serve --web mounts it at /demo/),
// the page, its scripts, the worker, the wasm and a 404, carries a Content-Security-Policy
// that runs only its own script files (and compiles WebAssembly) and lets no page frame
// it, and X-Frame-Options: DENY (issue 31, item 9).
func TestDemoPagePolicy(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/demo/", http.StripPrefix("/demo", web.Handler()))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, p := range []string{"/demo/", "/demo/index.html", "/demo/llmfs.js", "/demo/llmfs-worker.js",
		"/demo/wasm_exec.js", "/demo/llmfs.wasm", "/demo/console.js", "/demo/console.css", "/demo/nothing"} {
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		res, err := (&http.Transport{}).RoundTrip(req) // no redirect followed
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval';", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s (%d): Content-Security-Policy %q lacks %q", p, res.StatusCode, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "'unsafe-eval'") {
			t.Errorf("GET %s: Content-Security-Policy %q allows inline or eval'd code", p, csp)
		}
		if xfo := res.Header.Get("X-Frame-Options"); xfo != "DENY" {
			t.Errorf("GET %s: X-Frame-Options %q, want DENY", p, xfo)
		}
	}
}
