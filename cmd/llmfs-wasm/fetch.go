//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"syscall/js"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

// The web console (package console) runs here too: its Go HTTP handler, the one `llmfs
// serve` mounts, answers the page's API requests in process, over the same workspace the
// tools use. The page calls
//
//	fetch(method, url, headersJSON, body) -> Promise<Response>
//
// and gets a real JavaScript Response, so the console's code reads it as it reads the
// server's; a streamed answer (the change feed, Server-Sent Events) is a Response whose
// body is a ReadableStream fed as the handler flushes, and cancelling that stream ends the
// request. Only the URL's path and query matter. The handler's token and Host checks are
// kept, not bypassed: every request carries the instance's own random token, which never
// leaves Go, and names localhost.

// consoleHandler returns the instance's console handler, made on first use.
func (in *instance) consoleHandler() http.Handler {
	in.consoleOnce.Do(func() {
		in.consoleToken = rand.Text()
		var sys *sysfiles.Options
		if sysfiles.Wanted(in.ws, in.tb.Dialect() == tools.RTC) {
			sys = sysOptions(in.tb)
		}
		// The console's edits say what they replace (a base) instead of needing a read
		// in the same session, as on the server.
		in.console = console.Handler(in.ws.With(llmfs.RequireRead(false)), console.Options{Token: in.consoleToken, System: sys})
	})
	return in.console
}

// fetch is the JavaScript method: it returns a Promise of a Response.
func (in *instance) fetch(this js.Value, args []js.Value) any {
	req, cancel, err := in.request(args)
	executor := js.FuncOf(func(this js.Value, p []js.Value) any {
		resolve, reject := p[0], p[1]
		if err != nil {
			reject.Invoke(jsError(err))
			return nil
		}
		w := &streamWriter{header: http.Header{}, resolve: resolve, reject: reject, ctx: req.Context(), cancel: cancel}
		go w.serve(in, req)
		return nil
	})
	defer executor.Release() // the Promise constructor calls it synchronously
	return js.Global().Get("Promise").New(executor)
}

// request makes the http.Request for fetch(method, url, headersJSON, body).
func (in *instance) request(args []js.Value) (*http.Request, context.CancelFunc, error) {
	bad := func(msg string) error {
		return &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "fetch(method, url, headersJSON, body): " + msg}
	}
	in.consoleHandler() // makes the token
	for len(args) < 4 {
		args = append(args, js.Undefined())
	}
	if args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
		return nil, nil, bad("method and url must be strings")
	}
	u, err := url.Parse(args[1].String())
	if err != nil {
		return nil, nil, bad(err.Error())
	}
	target := "/" + strings.TrimPrefix(u.EscapedPath(), "/")
	if u.RawQuery != "" {
		target += "?" + u.RawQuery
	}
	var body []byte
	switch b := args[3]; {
	case b.Type() == js.TypeString:
		body = []byte(b.String())
	case b.InstanceOf(js.Global().Get("Uint8Array")):
		body = make([]byte, b.Length())
		js.CopyBytesToGo(body, b)
	case b.IsUndefined() || b.IsNull():
	default:
		return nil, nil, bad("body must be a string or a Uint8Array")
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, strings.ToUpper(args[0].String()), "http://localhost"+target, bytes.NewReader(body))
	if err != nil {
		cancel()
		return nil, nil, bad(err.Error())
	}
	if h := args[2]; h.Type() == js.TypeString && h.String() != "" {
		var fields map[string]string
		if err := json.Unmarshal([]byte(h.String()), &fields); err != nil {
			cancel()
			return nil, nil, bad("headersJSON: " + err.Error())
		}
		for k, v := range fields {
			req.Header.Set(k, v)
		}
	}
	req.Header.Del("Origin")
	req.Header.Set("Authorization", "Bearer "+in.consoleToken)
	req.RequestURI = target
	return req, cancel, nil
}

// streamWriter is the http.ResponseWriter of one fetch: it buffers what the handler writes
// until the handler returns or flushes, then settles the Promise with a Response; what it
// writes after that goes straight into the Response's stream.
type streamWriter struct {
	header          http.Header
	status          int
	buf             []byte
	resolve, reject js.Value
	ctx             context.Context
	cancel          context.CancelFunc
	controller      js.Value // the stream's controller, once the Promise is settled
	settled         bool
	streaming       bool
	cancelStream    js.Func
}

func (w *streamWriter) serve(in *instance, r *http.Request) {
	defer w.cancel()
	defer func() {
		if p := recover(); p != nil {
			err := &llmfs.Error{Code: llmfs.CodeIO, Msg: fmt.Sprintf("internal error: %v", p)}
			if !w.settled {
				w.settled = true
				w.reject.Invoke(jsError(err))
			} else if w.streaming && w.ctx.Err() == nil {
				w.controller.Call("error", jsError(err))
			}
		}
		if w.cancelStream.Truthy() {
			w.cancelStream.Release()
		}
	}()
	// What the console shows of /AGENT.md follows the agent's tool calls, as the tools'
	// reads do. A person's own changes do not regenerate it (as on the server, where it is
	// made when an agent's session starts): each would add a "system" change to the feed.
	in.refreshIfStale(r.Context())
	in.consoleHandler().ServeHTTP(w, r)
	if !w.settled {
		w.settle(false)
		return
	}
	if w.streaming && w.ctx.Err() == nil {
		w.controller.Call("close")
	}
}

func (w *streamWriter) Header() http.Header { return w.header }

func (w *streamWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *streamWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if !w.settled {
		w.buf = append(w.buf, p...)
		return len(p), nil
	}
	if err := w.ctx.Err(); err != nil {
		return 0, err // the page cancelled the stream: enqueueing would throw
	}
	w.controller.Call("enqueue", bytesJS(p))
	return len(p), nil
}

// Flush settles the Promise with a streamed Response if it is not settled yet.
func (w *streamWriter) Flush() {
	w.WriteHeader(http.StatusOK)
	if !w.settled {
		w.settle(true)
	}
}

// settle resolves the Promise with the Response: its whole body when the handler is done,
// or a stream that later writes feed.
func (w *streamWriter) settle(stream bool) {
	w.settled = true
	w.WriteHeader(http.StatusOK)
	headers := js.Global().Get("Headers").New()
	for k, vs := range w.header {
		for _, v := range vs {
			headers.Call("append", k, v)
		}
	}
	init := js.Global().Get("Object").New()
	init.Set("status", w.status)
	init.Set("headers", headers)
	var body any
	switch {
	case w.status == http.StatusNoContent || w.status == http.StatusResetContent || w.status == http.StatusNotModified:
		body = nil // a Response of these statuses must have no body
	case stream:
		w.streaming = true
		source := js.Global().Get("Object").New()
		start := js.FuncOf(func(this js.Value, args []js.Value) any {
			w.controller = args[0]
			return nil
		})
		defer start.Release() // ReadableStream calls start synchronously
		w.cancelStream = js.FuncOf(func(this js.Value, args []js.Value) any {
			w.cancel() // the page is done reading: end the request
			return nil
		})
		source.Set("start", start)
		source.Set("cancel", w.cancelStream)
		rs := js.Global().Get("ReadableStream").New(source)
		if len(w.buf) > 0 {
			w.controller.Call("enqueue", bytesJS(w.buf))
		}
		body = rs
	default:
		body = bytesJS(w.buf)
	}
	w.buf = nil
	w.resolve.Invoke(js.Global().Get("Response").New(body, init))
}

func bytesJS(p []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(a, p)
	return a
}
