//go:build !js && !wasip1

// Package web serves llmfs's browser build: a demo page (the file tree, a viewer, a box to
// run any tool call, the /AGENT.md "restore default" button, the storage used against the
// quota), the JavaScript module llmfs.js that opens a workspace in the page or in a Web
// Worker, and llmfs.wasm (cmd/llmfs-wasm) with the wasm_exec.js that matches it.
//
// # Where llmfs.wasm comes from
//
// The .wasm is a build product and is not committed. The handler finds it in one of two
// places:
//
//  1. Embedded: `go generate ./web` builds dist/llmfs.wasm and copies wasm_exec.js from the
//     same Go distribution into dist/; a binary built afterwards (llmfs serve --web)
//     embeds both and needs nothing at run time.
//  2. Built on demand: when dist/ holds no .wasm (a fresh checkout, the tests), the
//     handler builds cmd/llmfs-wasm with the go command from the module source this
//     package was compiled from, into a temporary directory, once per handler; the build
//     starts when the handler is made, and requests wait for it. wasm_exec.js then comes
//     from `go env GOROOT`. This needs the go command and the source tree, so it is for
//     development and tests; a handler that can do neither answers 503 and says why.
//
// llmfs.wasm is served gzip-compressed to clients that accept it.
package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

//go:generate env GOOS=js GOARCH=wasm go build -trimpath "-ldflags=-s -w" -o dist/llmfs.wasm ../cmd/llmfs-wasm
//go:generate cp $GOROOT/lib/wasm/wasm_exec.js dist/wasm_exec.js

//go:embed static dist
var files embed.FS

// Assets are the two build products the page needs.
type Assets struct {
	Wasm     []byte // llmfs.wasm
	WasmGzip []byte // llmfs.wasm, gzip-compressed
	WasmExec []byte // wasm_exec.js from the Go distribution that built Wasm
}

// Handler returns an http.Handler serving the demo page at "/", and llmfs.js,
// llmfs-worker.js, wasm_exec.js and llmfs.wasm beside it. Every URL in the page is
// relative, so it can be mounted under a prefix:
//
//	mux.Handle("/web/", http.StripPrefix("/web", web.Handler()))
func Handler() http.Handler {
	h := &handler{ready: make(chan struct{})}
	go h.prepare()
	return h
}

type handler struct {
	ready  chan struct{} // closed when assets or err is set
	assets *Assets
	err    error
}

func (h *handler) prepare() {
	defer close(h.ready)
	if a, err := embedded(); err == nil {
		h.assets = a
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	h.assets, h.err = Build(ctx)
}

// embedded returns the assets go generate left in dist/, if any.
func embedded() (*Assets, error) {
	wasm, err := files.ReadFile("dist/llmfs.wasm")
	if err != nil {
		return nil, err
	}
	exec, err := files.ReadFile("dist/wasm_exec.js")
	if err != nil {
		return nil, err
	}
	return withGzip(&Assets{Wasm: wasm, WasmExec: exec})
}

func withGzip(a *Assets) (*Assets, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(a.Wasm); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	a.WasmGzip = buf.Bytes()
	return a, nil
}

// ModuleDir returns the root of the llmfs source tree this package was compiled from, or
// an error if it is not on this machine (a -trimpath build, another machine).
func ModuleDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("web: the llmfs source tree is unknown (built with -trimpath?)")
	}
	dir := filepath.Dir(filepath.Dir(file))
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(mod), "module github.com/llmfs/llmfs\n") {
		return "", fmt.Errorf("web: no llmfs source tree at %s", dir)
	}
	return dir, nil
}

// Build builds cmd/llmfs-wasm with the go command from the source tree ([ModuleDir]) and
// reads the matching wasm_exec.js, as the handler does when nothing is embedded.
func Build(ctx context.Context) (*Assets, error) {
	dir, err := ModuleDir()
	if err != nil {
		return nil, fmt.Errorf("%w; run go generate ./web and rebuild to embed llmfs.wasm", err)
	}
	tmp, err := os.MkdirTemp("", "llmfs-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "llmfs.wasm")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./cmd/llmfs-wasm")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("web: building llmfs.wasm: %v\n%s", err, msg)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("web: go env GOROOT: %v", err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, err
	}
	return withGzip(&Assets{Wasm: wasm, WasmExec: execJS})
}

var static, _ = fs.Sub(files, "static")

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "" {
		// Mounted under a prefix (http.StripPrefix("/web", ...)) and asked for "/web":
		// send the browser to "/web/", or the page's relative URLs would miss the prefix.
		p, _, _ := strings.Cut(r.RequestURI, "?")
		http.Redirect(w, r, path.Base(p)+"/", http.StatusMovedPermanently)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	switch name {
	case "llmfs.wasm", "wasm_exec.js":
		select {
		case <-h.ready:
		case <-r.Context().Done():
			return
		}
		if h.err != nil {
			http.Error(w, h.err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		if name == "wasm_exec.js" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Write(h.assets.WasmExec)
			return
		}
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Add("Vary", "Accept-Encoding")
		body := h.assets.Wasm
		if acceptsGzip(r) {
			w.Header().Set("Content-Encoding", "gzip")
			body = h.assets.WasmGzip
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.Write(body)
		return
	case "":
		name = "index.html"
	}
	b, err := fs.ReadFile(static, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	switch {
	case strings.HasSuffix(name, ".js"):
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case strings.HasSuffix(name, ".html"):
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if enc, _, _ := strings.Cut(strings.TrimSpace(part), ";"); enc == "gzip" {
			return true
		}
	}
	return false
}
