//go:build !js && !wasip1

package web_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/llmfs/llmfs/internal/testdeadline"
	"github.com/llmfs/llmfs/web"
)

var (
	releaseOnce sync.Once
	releaseBin  string
	releaseErr  error
)

// releaseBinary builds cmd/llmfs as release/build.sh does, once per test binary: the
// browser build written to web/dist (go generate ./web), then -trimpath with the tag
// llmfs_webdist that embeds it.
func releaseBinary(t *testing.T) string {
	t.Helper()
	mod, err := web.ModuleDir()
	if err != nil {
		t.Skip(err)
	}
	releaseOnce.Do(func() {
		dir, err := os.MkdirTemp("", "llmfs-web-test")
		if err != nil {
			releaseErr = err
			return
		}
		releaseBin = filepath.Join(dir, "llmfs")
		gen := exec.Command("go", "generate", "./web")
		gen.Dir = mod
		if out, err := gen.CombinedOutput(); err != nil {
			releaseErr = fmt.Errorf("go generate ./web: %v\n%s", err, out)
			return
		}
		build := exec.Command("go", "build", "-trimpath", "-tags", "llmfs_webdist", "-o", releaseBin, "./cmd/llmfs")
		build.Dir = mod
		if out, err := build.CombinedOutput(); err != nil {
			releaseErr = fmt.Errorf("go build -trimpath -tags llmfs_webdist ./cmd/llmfs: %v\n%s", err, out)
		}
	})
	if releaseErr != nil {
		t.Fatal(releaseErr)
	}
	return releaseBin
}

// Issue 13.16: `go install -trimpath ./cmd/llmfs`, then `llmfs serve --web` outside the
// repository, answered /llmfs.wasm with 503 (the handler wanted to build it from the source
// tree) and the page showed "Failed to fetch dynamically imported module". A binary built
// with -trimpath and run from an empty directory, with no go command on PATH, must serve
// the page and a .wasm that opens in Chromium.
func TestServeWebFromReleaseBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/llmfs: not in -short mode")
	}
	bin := releaseBinary(t)

	ctx, cancel := testdeadline.Context(t, 10*time.Minute)
	defer cancel()
	cwd, empty := t.TempDir(), t.TempDir()
	serve := exec.CommandContext(ctx, bin, "serve", "--web", "--addr", "127.0.0.1:0", "--token", "tok", "--agent-md=false")
	serve.Dir = cwd
	serve.Env = []string{"PATH=" + empty, "HOME=" + cwd} // no go command, no source tree
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		serve.Process.Signal(os.Interrupt)
		serve.Wait()
	}()
	var log bytes.Buffer
	sc := bufio.NewScanner(stderr)
	demo := regexp.MustCompile(`serving the browser demo at (http://\S+/)`)
	var url string
	for url == "" && sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if m := demo.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("llmfs serve --web never said where the page is:\n%s", log.String())
	}
	go io.Copy(io.Discard, stderr)

	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", url+path, nil)
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	if resp, body := get(""); resp.StatusCode != 200 || !bytes.Contains(body, []byte(`content="wasm"`)) {
		t.Errorf("GET /: %d, %d bytes", resp.StatusCode, len(body))
	}
	if resp, body := get("wasm_exec.js"); resp.StatusCode != 200 || !bytes.Contains(body, []byte("globalThis.Go")) {
		t.Errorf("GET /wasm_exec.js: %d, %d bytes", resp.StatusCode, len(body))
	}
	resp, wasm := get("llmfs.wasm")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Fatalf("GET /llmfs.wasm: %d %s, %d bytes starting %q", resp.StatusCode, resp.Header.Get("Content-Type"), len(wasm), wasm[:min(len(wasm), 16)])
	}

	// The page opens llmfs from that .wasm, in a real browser.
	exe := chromium(t)
	b := startBrowser(t, exe, t.TempDir())
	b.run("loading the page", chromedp.Navigate(url))
	b.waitReady(`{db: "release"}`)
	b.mustCall("write", map[string]any{"path": "/hello.txt", "content": "hi\n"})
	b.noConsoleErrors()
}
