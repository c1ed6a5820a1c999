//go:build !js && !wasip1

package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/web"
)

var serveCmd = &command{
	name:  "serve",
	args:  "[--addr 127.0.0.1:7700] [--root DIR]... | --store DSN --workspace ID  [--token T] [--dialect agentool|rtc|codex|anthropic|gemini] [--history-tools] [workspace flags]",
	short: "serve the workspace as an MCP server over streamable HTTP at /mcp",
	long: `Every request needs "Authorization: Bearer TOKEN". Without --token (or $LLMFS_TOKEN) a random
token is made and printed to standard error at start. The Host header must name a loopback
address, the listening host or an --allow-host name, and so must an Origin header: anything
else is refused (403), which defeats DNS rebinding and requests from web pages.
Each MCP session (Mcp-Session-Id) tracks its own reads; a session idle for --session-timeout
ends, and past --max-sessions open at once a new one gets 503. SIGINT or SIGTERM stops the server
gracefully. Requests are logged to standard error, one structured line each.
Without --root and --store it serves the current directory; --store and --workspace serve a
virtual workspace kept in a database (see 'llmfs ws').
/ serves the web console for people (browse, edit, the live change feed, diffs, undo,
checkpoints) on the first root; its URL, printed at start, carries the token in its fragment.
With --web, /demo/ serves a page that runs llmfs in the browser (WebAssembly over IndexedDB).`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var f mcpFlags
		f.register(fs, &e.ws)
		addr := fs.String("addr", "127.0.0.1:7700", "listen on `ADDR` (host:port; port 0 picks a free one)")
		token := fs.String("token", "", "bearer `TOKEN` clients must send (default: $LLMFS_TOKEN, else a random one)")
		maxBody := fs.Int64("max-body", mcpserver.DefaultMaxBodyBytes, "largest request body in `BYTES`")
		sessionTimeout := fs.Duration("session-timeout", mcpserver.DefaultSessionTimeout, "end a session idle for `DURATION` (negative: never)")
		maxSessions := fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "most `N` MCP sessions open at once; more get 503 (negative: no cap)")
		memBudget := fs.Int64("mem-budget", mcpserver.DefaultMemoryBudget, "memory in `BYTES` the requests in flight may take (each counts 8x its body); more wait, then get 503; GOMEMLIMIT defaults to it plus 64 MiB (negative: no budget)")
		webPage := fs.Bool("web", false, "also serve the browser demo page at /demo/ (llmfs in WebAssembly over IndexedDB; no token needed, it touches no server files)")
		var allowHosts stringList
		fs.Var(&allowHosts, "allow-host", "also accept `NAME` in the Host and Origin headers (repeatable; loopback names and the listening host always are)")
		return func(ctx context.Context, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected argument %q", args[0])
			}
			logger := slog.New(slog.NewTextHandler(e.stderr, nil))
			if *memBudget > 0 && os.Getenv("GOMEMLIMIT") == "" {
				// A soft limit makes the collector work harder before the heap passes
				// the budget, whatever GOGC (relaxGC) lets it grow to otherwise.
				debug.SetMemoryLimit(*memBudget + 64<<20)
			}
			srv, err := f.server(e, logger)
			if err != nil {
				return err
			}
			tok := *token
			if tok == "" {
				tok = os.Getenv("LLMFS_TOKEN")
			}
			if tok == "" {
				tok = rand.Text()
				fmt.Fprintf(e.stderr, "llmfs: bearer token: %s\n", tok)
			}
			ln, err := net.Listen("tcp", *addr)
			if err != nil {
				return err
			}
			host, _, _ := net.SplitHostPort(ln.Addr().String())
			if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() && len(allowHosts) == 0 {
				logger.Warn("listening on all interfaces, but only loopback names are accepted in the Host header; add --allow-host NAME for the names clients use")
			}
			mux := http.NewServeMux()
			mux.Handle("/mcp", mcpserver.NewHTTPHandler(srv, &mcpserver.HTTPOptions{
				Token:          tok,
				Hosts:          append([]string{host}, allowHosts...),
				MaxBodyBytes:   *maxBody,
				SessionTimeout: *sessionTimeout,
				MaxSessions:    *maxSessions,
				MemoryBudget:   *memBudget,
				Logger:         logger,
			}))
			// The console, for people, on the default root's workspace (issue 16).
			mux.Handle("/", console.Handler(f.first, console.Options{Token: tok, Hosts: append([]string{host}, allowHosts...), System: f.ws.sysOptions(f.first)}))
			if *webPage {
				// The page runs llmfs in the visitor's browser, on the browser's own
				// storage: it reads nothing of this workspace, so it needs no token.
				mux.Handle("/demo/", http.StripPrefix("/demo", web.Handler()))
				fmt.Fprintf(e.stderr, "llmfs: serving the browser demo at http://%s/demo/\n", ln.Addr())
			}
			// IdleTimeout closes kept-alive connections nobody uses (without it, forever);
			// no Read or WriteTimeout: an MCP event stream is one long request.
			hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
				ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
			if f.ws.storeDSN != "" {
				fmt.Fprintf(e.stderr, "llmfs: workspace %s in %s\n", f.ws.workspace, redactDSN(f.ws.storeDSN))
			}
			fmt.Fprintf(e.stderr, "llmfs: serving MCP at http://%s/mcp\n", ln.Addr())
			fmt.Fprintf(e.stderr, "llmfs: console at http://%s/#token=%s\n", consoleAddr(ln.Addr()), tok)

			served := make(chan error, 1)
			go func() { served <- hs.Serve(ln) }()
			select {
			case err := <-served:
				return err
			case <-ctx.Done():
			}
			logger.Info("shutting down")
			// Stop accepting, and close the MCP sessions: their open event streams would
			// hold Shutdown for its whole timeout. A call still running is cancelled; its
			// writes, atomic, happen whole or not at all.
			shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- hs.Shutdown(shutdownCtx) }()
			for ss := range srv.Sessions() {
				ss.Close()
			}
			if err := <-done; err != nil {
				return fmt.Errorf("shutting down: %w", err)
			}
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			logger.Info("stopped")
			return nil
		}
	},
}

// consoleAddr is the address to print in the console URL: a loopback one when the server
// listens on all interfaces, since the console accepts loopback names by default.
func consoleAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
