//go:build !js && !wasip1

package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/web"
)

// TestHandler checks what the handler serves, over a real HTTP server.
func TestHandler(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	get := func(path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		// A bare transport, so that gzip is neither asked for nor undone behind our back.
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}
	for _, tc := range []struct{ path, ctype, contains string }{
		{"/", "text/html", `<meta name="llmfs-backend" content="wasm">`},
		{"/index.html", "text/html", `src="console.js"`},
		{"/console.js", "text/javascript", "llmfs-backend"},
		{"/console.css", "text/css", "{"},
		{"/vendor.js", "text/javascript", "highlight"},
		{"/llmfs.js", "text/javascript", "export async function open"},
		{"/llmfs-worker.js", "text/javascript", "self.onmessage"},
		{"/wasm_exec.js", "text/javascript", "globalThis.Go"},
	} {
		resp, body := get(tc.path)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) || !bytes.Contains(body, []byte(tc.contains)) {
			t.Errorf("GET %s: %d %s, %d bytes; want %s containing %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), tc.ctype, tc.contains)
		}
	}
	resp, raw := get("/llmfs.wasm")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Fatalf("GET /llmfs.wasm: %d %s, starts %q", resp.StatusCode, resp.Header.Get("Content-Type"), raw[:min(len(raw), 8)])
	}
	resp, gz := get("/llmfs.wasm", "Accept-Encoding", "br, gzip;q=0.9")
	if resp.Header.Get("Content-Encoding") != "gzip" || len(gz) >= len(raw) {
		t.Errorf("GET /llmfs.wasm accepting gzip: encoding %q, %d bytes of %d", resp.Header.Get("Content-Encoding"), len(gz), len(raw))
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if un, err := io.ReadAll(zr); err != nil || !bytes.Equal(un, raw) {
		t.Errorf("the gzip body does not decompress to the .wasm: %v", err)
	}
	if resp, _ := get("/missing.js"); resp.StatusCode != 404 {
		t.Errorf("GET /missing.js: %d", resp.StatusCode)
	}
	if resp, _ := get("/../web.go"); resp.StatusCode != 404 {
		t.Errorf("GET /../web.go: %d", resp.StatusCode)
	}
	post, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", post.StatusCode)
	}
}

// TestHandlerPrefix checks the handler mounted under a prefix, as llmfs serve --web would.
func TestHandlerPrefix(t *testing.T) {
	// No ServeMux in front: it would redirect "/web" itself.
	srv := httptest.NewServer(http.StripPrefix("/web", web.Handler()))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/web")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Request.URL.Path != "/web/" || !bytes.Contains(body, []byte(`src="console.js"`)) {
		t.Errorf("GET /web ended at %s with %d bytes", resp.Request.URL.Path, len(body))
	}
	resp, err = http.Get(srv.URL + "/web/llmfs.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET /web/llmfs.js: %d", resp.StatusCode)
	}
}

// TestDemoPageWeight checks the in-browser console's page weight without the .wasm, as
// served, against issue 16's budget of 500 KB gzip: every file of the console's page (as
// package console embeds it), llmfs.js, its worker and wasm_exec.js.
func TestDemoPageWeight(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	names := []string{"llmfs.js", "llmfs-worker.js", "wasm_exec.js"}
	err := fs.WalkDir(console.UI(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, name := range names {
		if name == "index.html" {
			name = "" // the page as served at "/", with its backend line
		}
		resp, err := http.Get(srv.URL + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET /%s: %d %v", name, resp.StatusCode, err)
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		t.Logf("/%s: %d bytes, %d gzip", name, len(b), gz.Len())
		total += gz.Len()
	}
	const budget = 500_000
	t.Logf("the page without llmfs.wasm: %d bytes gzip (budget %d)", total, budget)
	if total > budget {
		t.Errorf("the in-browser console weighs %d bytes gzip without the .wasm, over the %d budget", total, budget)
	}
}
