//go:build js && wasm

// Command llmfs-wasm is llmfs for the browser: the core and its tools over an IndexedDB
// store (package store/idb), driven from JavaScript.
//
// Build it with
//
//	GOOS=js GOARCH=wasm go build -o llmfs.wasm ./cmd/llmfs-wasm
//
// and load it with $GOROOT/lib/wasm/wasm_exec.js; web/llmfs.js does both and is the
// intended way in (see package web). Once running, the program sets
// globalThis.llmfsWasm to an object with one method:
//
//	open({db, dialect, mode, requireRead}) -> Promise<instance>
//
// db is the IndexedDB database name (default "llmfs"), dialect "rtc" (default) or
// "agentool", mode "read-only", "read-write" (default) or "full", and requireRead turns
// read-before-edit on or off (default: on in the rtc dialect). quota {maxBytes,
// maxFileBytes, maxFiles} and deny (globs) set the workspace's limits (policy.go); the
// browser's own quota applies anyway (QUOTA_EXCEEDED, nothing written). seed (default
// false) writes a few example files into a database that has never held any (seed.go). An
// instance has:
//
//	call(tool, argsJSON) -> Promise<string>  {"ok":true,"result":...} or {"ok":false,"error":{"code","message"}};
//	                                         argsJSON is a string (absent: {}); anything else rejects
//	tools() -> string                        the tool definitions, as JSON
//	readText(path) -> Promise<string>        {"content","total_lines","truncated"} for a viewer
//	usage() -> Promise<string>               {"files","dirs","bytes"}
//	features() -> string                     {"agent_file": bool, "policy": bool, "dialect", "mode"}
//	restoreAgentFile() -> Promise<string>    regenerate /AGENT.md (needs package sysfiles)
//	fetch(method, url, headersJSON, body) -> Promise<Response>
//	                                         the web console's HTTP API (package console),
//	                                         answered in process as actor "web" (fetch.go)
//	close() -> Promise<undefined>
//
// Then it calls globalThis.llmfsWasmReady(llmfsWasm) if that is a function.
//
// No Go function called from JavaScript ever waits: tools and features only compute, and
// every other method starts a goroutine and returns a Promise that the goroutine settles,
// so the JavaScript thread (a page, or better a Web Worker) stays free while the store
// waits on IndexedDB.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"syscall/js"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/idb"
	"github.com/llmfs/llmfs/tools"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("open", js.FuncOf(func(this js.Value, args []js.Value) any {
		var opts js.Value
		if len(args) > 0 {
			opts = args[0]
		}
		return promise(func() (any, error) { return open(opts) })
	}))
	js.Global().Set("llmfsWasm", api)
	if ready := js.Global().Get("llmfsWasmReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(api)
	}
	select {} // serve calls until the page or worker goes away
}

// options is what open accepts.
type options struct {
	db          string
	dialect     tools.Dialect
	mode        llmfs.Mode
	requireRead bool
	seed        bool // write the demo's files into a new database (seed.go)
}

func parseOptions(v js.Value) (options, error) {
	o := options{db: "llmfs", dialect: tools.RTC, mode: llmfs.ReadWrite}
	if v.Type() != js.TypeObject {
		o.requireRead = true
		return o, nil
	}
	str := func(name string, dst *string) error {
		switch f := v.Get(name); f.Type() {
		case js.TypeUndefined, js.TypeNull:
		case js.TypeString:
			*dst = f.String()
		default:
			return fmt.Errorf("option %s must be a string", name)
		}
		return nil
	}
	var dialect, mode string
	if err := errors.Join(str("db", &o.db), str("dialect", &dialect), str("mode", &mode)); err != nil {
		return o, err
	}
	if dialect != "" {
		o.dialect = tools.Dialect(dialect)
	}
	if mode != "" {
		o.mode = llmfs.Mode(mode)
	}
	if !o.mode.Valid() {
		return o, fmt.Errorf("unknown mode %q (read-only, read-write, full)", mode)
	}
	if o.db == "" {
		return o, errors.New("option db must not be empty")
	}
	o.requireRead = o.dialect == tools.RTC
	for name, dst := range map[string]*bool{"requireRead": &o.requireRead, "seed": &o.seed} {
		switch f := v.Get(name); f.Type() {
		case js.TypeUndefined, js.TypeNull:
		case js.TypeBoolean:
			*dst = f.Bool()
		default:
			return o, fmt.Errorf("option %s must be a boolean", name)
		}
	}
	return o, nil
}

// instance is one open workspace.
type instance struct {
	store *idb.Store
	ws    *llmfs.Workspace // the agent's session: its reads vouch for its edits
	view  *llmfs.Workspace // the page's viewer, a session of its own
	tb    *tools.Toolbox

	// stale says a change may have made /AGENT.md's summary out of date. It is refreshed
	// before the next read, not after every change: a burst of 1,000 writes then costs one
	// summary walk, not 1,000.
	mu    sync.Mutex
	stale bool

	consoleOnce  sync.Once
	console      http.Handler // the web console's API (fetch.go)
	consoleToken string       // the token its requests carry, never shown to JavaScript
}

// markStale records that a tool call may have changed files.
func (in *instance) markStale() {
	in.mu.Lock()
	in.stale = true
	in.mu.Unlock()
}

// refreshIfStale brings /AGENT.md up to date before anything reads, if a change since the
// last refresh may have made it stale. A change during the refresh marks it stale again.
func (in *instance) refreshIfStale(ctx context.Context) {
	in.mu.Lock()
	stale := in.stale
	in.stale = false
	in.mu.Unlock()
	if stale {
		// The tool's result stands whatever this does.
		_ = ensureSystemFiles(ctx, in.tb)
	}
}

func open(v js.Value) (any, error) {
	o, err := parseOptions(v)
	if err != nil {
		return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "llmfs.open: " + err.Error()}
	}
	wsOpts := &llmfs.Options{Mode: o.mode, RequireRead: o.requireRead}
	if err := parsePolicy(v, wsOpts); err != nil {
		return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "llmfs.open: " + err.Error()}
	}
	ctx := context.Background()
	s, err := idb.Open(ctx, o.db)
	if err != nil {
		return nil, err
	}
	if o.seed {
		if err := seed(ctx, s, wsOpts); err != nil {
			s.Close()
			return nil, err
		}
	}
	ws := llmfs.New(s, wsOpts)
	tb, err := tools.New(ws, o.dialect)
	if err != nil {
		s.Close()
		return nil, err
	}
	in := &instance{store: s, ws: ws, view: ws.With(llmfs.NewSession()), tb: tb}
	if err := ensureSystemFiles(ctx, tb); err != nil {
		s.Close()
		return nil, err
	}
	return in.object(), nil
}

// object is the instance as JavaScript sees it.
func (in *instance) object() js.Value {
	obj := js.Global().Get("Object").New()
	method := func(name string, f func(args []js.Value) (any, error)) {
		obj.Set(name, js.FuncOf(func(this js.Value, args []js.Value) any {
			return promise(func() (any, error) { return f(args) })
		}))
	}
	method("call", in.call)
	method("readText", in.readText)
	method("usage", in.usage)
	method("restoreAgentFile", in.restoreAgentFile)
	method("close", func([]js.Value) (any, error) { return nil, in.store.Close() })
	obj.Set("fetch", js.FuncOf(in.fetch))
	obj.Set("tools", js.FuncOf(func(this js.Value, args []js.Value) any {
		return jsonString(in.tb.Definitions())
	}))
	obj.Set("features", js.FuncOf(func(this js.Value, args []js.Value) any {
		return jsonString(map[string]any{"agent_file": true, "policy": true,
			"dialect": in.tb.Dialect(), "mode": in.ws.Settings().Mode})
	}))
	return obj
}

// call runs one tool call; a tool's failure is a result ({"ok":false,...}), not a rejection.
func (in *instance) call(args []js.Value) (any, error) {
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "call(tool, argsJSON): tool must be a string"}
	}
	raw := "{}"
	if len(args) > 1 {
		switch args[1].Type() {
		case js.TypeString:
			raw = args[1].String()
		case js.TypeUndefined, js.TypeNull:
		default:
			// An object passed as is would otherwise run the tool with no arguments.
			return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "call(tool, argsJSON): argsJSON must be a JSON string (JSON.stringify the arguments)"}
		}
	}
	ctx := context.Background()
	// Keep /AGENT.md's summary current while nobody edited it: what reads sees it fresh.
	changing := changes(in.tb, args[0].String())
	if !changing {
		in.refreshIfStale(ctx)
	}
	out, err := in.tb.Call(ctx, args[0].String(), json.RawMessage(raw))
	if changing {
		in.markStale()
	}
	if err != nil {
		return jsonString(map[string]any{"ok": false, "error": tools.ErrorOf(err)}), nil
	}
	return `{"ok":true,"result":` + string(out) + `}`, nil
}

// readText reads a whole text file for the page's viewer (raw, not numbered), within the
// workspace's read caps, in the viewer's own session.
func (in *instance) readText(args []js.Value) (any, error) {
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "readText(path): path must be a string"}
	}
	in.refreshIfStale(context.Background())
	res, err := in.view.Read(context.Background(), args[0].String(), llmfs.ReadOptions{Limit: llmfs.NoLimit})
	if err != nil {
		return nil, err
	}
	return jsonString(map[string]any{"path": res.Path, "content": res.Content,
		"total_lines": res.TotalLines, "truncated": res.Truncated}), nil
}

func (in *instance) usage([]js.Value) (any, error) {
	files, dirs, bytes, err := in.store.Usage(context.Background())
	if err != nil {
		return nil, err
	}
	return jsonString(map[string]any{"files": files, "dirs": dirs, "bytes": bytes}), nil
}

func (in *instance) restoreAgentFile([]js.Value) (any, error) {
	if err := restoreAgentFile(context.Background(), in.tb); err != nil {
		return nil, err
	}
	return jsonString(map[string]any{"path": "/AGENT.md"}), nil
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"ok":false,"error":{"code":"IO_ERROR","message":"cannot encode the result"}}`
	}
	return string(b)
}

// promise returns a JavaScript Promise settled by f, which runs on its own goroutine so
// that the calling JavaScript never waits. A failure rejects with an Error carrying the
// llmfs code as its code property.
func promise(f func() (any, error)) js.Value {
	executor := js.FuncOf(func(this js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			v, err := run(f)
			if err != nil {
				reject.Invoke(jsError(err))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	defer executor.Release() // the Promise constructor calls it synchronously
	return js.Global().Get("Promise").New(executor)
}

// run calls f and turns a panic into an error, so no input can bring the instance down.
func run(f func() (any, error)) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &llmfs.Error{Code: llmfs.CodeIO, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	return f()
}

func jsError(err error) js.Value {
	eo := tools.ErrorOf(err)
	e := js.Global().Get("Error").New(eo.Message)
	e.Set("code", eo.Code)
	return e
}
