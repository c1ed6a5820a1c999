//go:build !js && !wasip1

// Package web serves llmfs's browser build: the web console (package console, the same
// page `llmfs serve` shows at "/") running on the in-browser core, the JavaScript module
// llmfs.js that opens a workspace in the page or in a Web Worker, and llmfs.wasm
// (cmd/llmfs-wasm) with the wasm_exec.js that matches it.
//
// # One console, two backends
//
// The page at "/" is console/ui/index.html with one line added, <meta name="llmfs-backend"
// content="wasm">; console.js, console.css and vendor.js are the console's files, served
// from package console. Seeing the line, console.js opens llmfs.wasm over IndexedDB (database
// "llmfs-console", a few example files on a first visit) and sends every API request and
// the change feed to its fetch method, where the console's Go handler answers them in
// process, as actor "web", with the journal in the same database. No token is asked for:
// nothing leaves the browser.
//
// # Where llmfs.wasm comes from
//
// The browser build (cmd/llmfs-wasm for js/wasm, gzip-compressed, about 3.6 MiB, and the
// wasm_exec.js of the Go distribution that built it) is build output, so it is not kept in
// the source tree. A binary gets it in one of two ways:
//
//   - A release embeds it: release/build.sh runs `go generate ./web`, which writes
//     dist/llmfs.wasm.gz, dist/wasm_exec.js and dist/BUILD (ignored by git), then builds with
//     the tag llmfs_webdist, which embeds them. Such a binary serves the page with no Go
//     toolchain or source tree at run time.
//   - Any other build (go run, go install from a clone, go test) builds it from the source
//     tree it was compiled from, with the go command, when [Handler] is first called; the
//     page is served at once and the request for llmfs.wasm waits for the build (a minute
//     the first time, seconds once the go command's cache holds it). A binary with neither
//     (built with -trimpath and without the tag, or moved to another machine) answers
//     llmfs.wasm with 503 and says how to get a build that has it.
//
// Tests that must run the current source serve [Build]'s output through [NewHandler].
//
// llmfs.wasm is served gzip-compressed to clients that accept it.
package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/internal/pagepolicy"
	"github.com/llmfs/llmfs/web/internal/wasmbuild"
)

//go:generate go run ./internal/gendist

//go:embed static/llmfs.js static/llmfs-worker.js
var files embed.FS

// Assets are the build products the page needs.
type Assets struct {
	Wasm     []byte // llmfs.wasm; may be nil when WasmGzip is set (the handler inflates it once, if a client needs it)
	WasmGzip []byte // llmfs.wasm, gzip-compressed
	WasmExec []byte // wasm_exec.js from the Go distribution that built Wasm
}

// Handler returns an http.Handler serving the in-browser console at "/", and llmfs.js,
// llmfs-worker.js, wasm_exec.js and llmfs.wasm beside it: the build embedded in the binary
// ([Embedded]) or, without one, a build from the source tree made in the background from
// the first call on (see "Where llmfs.wasm comes from"). Every URL in the page is
// relative, so it can be mounted under a prefix:
//
//	mux.Handle("/web/", http.StripPrefix("/web", web.Handler()))
func Handler() http.Handler {
	if a, ok := Embedded(); ok {
		return NewHandler(a)
	}
	return &handler{load: sourceBuild()}
}

// NewHandler is [Handler] serving the given assets, such as those [Build] made from the
// source tree.
func NewHandler(a *Assets) http.Handler {
	ready := prepare(*a)
	return &handler{load: func(context.Context) (*loaded, error) { return ready, nil }}
}

// loaded is a build ready to serve: its assets and, made once when a client first needs
// it, the uncompressed .wasm.
type loaded struct {
	assets  Assets
	inflate func() ([]byte, error) // the uncompressed .wasm, for clients that do not take gzip
}

func prepare(a Assets) *loaded {
	l := &loaded{assets: a}
	l.inflate = sync.OnceValues(func() ([]byte, error) {
		if l.assets.Wasm != nil {
			return l.assets.Wasm, nil
		}
		zr, err := gzip.NewReader(bytes.NewReader(l.assets.WasmGzip))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	})
	if l.assets.WasmGzip == nil {
		l.assets.WasmGzip = wasmbuild.Gzip(l.assets.Wasm)
	}
	return l
}

type handler struct {
	// load returns the build to serve, waiting for it (within ctx) if it is being made.
	load func(ctx context.Context) (*loaded, error)
}

// sourceBuildTimeout bounds a build from the source tree: on a loaded two-core machine
// the first build takes a few minutes, and a build that takes longer has gone wrong.
const sourceBuildTimeout = 15 * time.Minute

var building struct {
	once sync.Once
	done chan struct{}
	l    *loaded
	err  error
}

// sourceBuild starts building the browser build from the source tree, once per process,
// and returns a function that waits for it.
func sourceBuild() func(context.Context) (*loaded, error) {
	building.once.Do(func() {
		building.done = make(chan struct{})
		go func() {
			defer close(building.done)
			if _, err := ModuleDir(); err != nil {
				building.err = fmt.Errorf("this llmfs binary has no browser build embedded, and %w; a release binary has one, and so has a binary built with `go generate ./web && go build -tags llmfs_webdist ./cmd/llmfs`", err)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), sourceBuildTimeout)
			defer cancel()
			a, err := Build(ctx)
			if err != nil {
				building.err = err
				return
			}
			building.l = prepare(*a)
		}()
	})
	return func(ctx context.Context) (*loaded, error) {
		select {
		case <-building.done:
			return building.l, building.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Embedded returns the build embedded in the binary, WasmGzip and WasmExec (Wasm is nil),
// and whether there is one: only a binary built with the tag llmfs_webdist has it.
func Embedded() (*Assets, bool) { return embedded() }

// ModuleDir returns the root of the llmfs source tree this package was compiled from, or
// an error if it is not on this machine (a -trimpath build, another machine).
func ModuleDir() (string, error) { return wasmbuild.ModuleDir() }

// Build builds cmd/llmfs-wasm with the go command from the source tree ([ModuleDir]) and
// reads the matching wasm_exec.js: what `go generate ./web` commits to dist/. The build is
// reproducible (-trimpath, -buildvcs=false), so the same source and Go version give the
// same bytes.
func Build(ctx context.Context) (*Assets, error) {
	wasm, execJS, err := wasmbuild.Build(ctx)
	if err != nil {
		return nil, err
	}
	return &Assets{Wasm: wasm, WasmGzip: wasmbuild.Gzip(wasm), WasmExec: execJS}, nil
}

var static, _ = fs.Sub(files, "static")

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pagepolicy.Set(w.Header(), true) // every answer: the page, its assets, a 404
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
		h.serveBuild(w, r, name)
		return
	case "", "index.html":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(demoPage())
		return
	}
	// llmfs.js and its worker are this package's; everything else of the page is the
	// console's own files.
	b, err := fs.ReadFile(static, name)
	if err != nil {
		b, err = fs.ReadFile(console.UI(), name)
	}
	if err != nil || strings.HasSuffix(name, "/") {
		http.NotFound(w, r)
		return
	}
	switch {
	case strings.HasSuffix(name, ".js"):
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case strings.HasSuffix(name, ".css"):
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}

// serveBuild serves llmfs.wasm or wasm_exec.js, waiting for a build being made.
func (h *handler) serveBuild(w http.ResponseWriter, r *http.Request, name string) {
	l, err := h.load(r.Context())
	if err != nil {
		http.Error(w, name+": "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	if name == "wasm_exec.js" {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(l.assets.WasmExec)
		return
	}
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Add("Vary", "Accept-Encoding")
	body := l.assets.WasmGzip
	if acceptsGzip(r) {
		w.Header().Set("Content-Encoding", "gzip")
	} else if body, err = l.inflate(); err != nil {
		http.Error(w, "llmfs.wasm: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.Write(body)
}

// backendMeta tells the console's page that it runs on the in-browser core: console.js
// then sends its API requests to llmfs.wasm (llmfs.js's fetch) instead of a server.
const backendMeta = `<meta name="llmfs-backend" content="wasm">`

// demoPage is the console's index.html with [backendMeta] at the top of its head: the
// same page as `llmfs serve` shows at "/", nothing of it written twice.
var demoPage = sync.OnceValue(func() []byte {
	b, err := fs.ReadFile(console.UI(), "index.html")
	if err != nil {
		panic(err) // go:embed guarantees it
	}
	head := []byte("<head>")
	i := bytes.Index(b, head)
	if i < 0 {
		panic("console/ui/index.html has no <head>")
	}
	i += len(head)
	return slices.Concat(b[:i], []byte("\n"+backendMeta), b[i:])
})

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if enc, _, _ := strings.Cut(strings.TrimSpace(part), ";"); enc == "gzip" {
			return true
		}
	}
	return false
}
