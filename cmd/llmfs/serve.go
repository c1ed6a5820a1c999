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
	"github.com/llmfs/llmfs/mcpserver/fleet"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	"github.com/llmfs/llmfs/web"
)

var serveCmd = &command{
	name:  "serve",
	args:  "[--addr 127.0.0.1:7700] [--root DIR]... | --store DSN [--workspace ID]  [--token T] [--dialect agentool|rtc|codex|anthropic|gemini] [--history-tools] [workspace flags]",
	short: "serve the workspace as an MCP server over streamable HTTP at /mcp",
	long: `Every request needs "Authorization: Bearer TOKEN". Without --token (or $LLMFS_TOKEN) a random
token is made and printed to standard error at start. The Host header must name a loopback
address, the listening host or an --allow-host name, and so must an Origin header: anything
else is refused (403), which defeats DNS rebinding and requests from web pages.
Each MCP session (Mcp-Session-Id) tracks its own reads; a session idle for --session-timeout
ends, and past --max-sessions open at once a new one gets 503. SIGINT or SIGTERM stops the server
at once, exit status 0: open event streams (console tabs, MCP streams) end, a request that
writes finishes first. Requests are logged to standard error, one structured line each.
The address is taken before anything is printed: if it is in use, serve says what to do.
Without --root and --store it serves the current directory; --store and --workspace serve a
virtual workspace kept in a database (see 'llmfs ws').
--store without --workspace serves every workspace of the database, each at /mcp/ID, to
clients holding a token of that workspace ('llmfs ws token create'); the token's mode is the
mode it is served in (never more than --mode). Requests are stateless, so several replicas
on one PostgreSQL database can stand behind one address without sticky sessions; there is no
console, no read-before-edit and no --token in this mode.
/ serves the web console for people (browse, edit, the live change feed, diffs, undo,
checkpoints; with --review, the pending changes to apply or discard per file or hunk) on the
first root; its URL, printed at start, carries the token in its fragment.
With --web, /demo/ serves the same console running in the browser, on llmfs compiled to
WebAssembly over the browser's IndexedDB (no token: it touches no server files).`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var f mcpFlags
		f.register(fs, &e.ws)
		addr := fs.String("addr", "127.0.0.1:7700", "listen on `ADDR` (host:port; port 0 picks a free one)")
		token := fs.String("token", "", "bearer `TOKEN` clients must send (default: $LLMFS_TOKEN, else a random one)")
		maxBody := fs.Int64("max-body", mcpserver.DefaultMaxBodyBytes, "largest request body in `BYTES`")
		sessionTimeout := fs.Duration("session-timeout", mcpserver.DefaultSessionTimeout, "end a session idle for `DURATION` (negative: never)")
		maxSessions := fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "most `N` MCP sessions open at once; more get 503 (negative: no cap)")
		memBudget := fs.Int64("mem-budget", mcpserver.DefaultMemoryBudget, "memory in `BYTES` the requests in flight may take (each counts 8x its body); more wait, then get 503; GOMEMLIMIT defaults to it plus 64 MiB (negative: no budget)")
		maxOpen := fs.Int("max-open", fleet.DefaultMaxOpen, "serving every workspace of --store: keep at most `N` workspaces open (least recently used dropped first)")
		dbConns := fs.Int("db-conns", 32, "serving every workspace of --store: open at most `N` database connections (0: no bound)")
		oauthIssuer := fs.String("oauth-issuer", "", "serving every workspace of --store: also accept JWT access tokens of the OAuth authorization server `URL` (scopes llmfs:WORKSPACE:MODE)")
		oauthAudience := fs.String("oauth-audience", "", "with --oauth-issuer: this server's resource `URL`, the audience tokens must name")
		oauthJWKS := fs.String("oauth-jwks", "", "with --oauth-issuer: the issuer's keys at `URL` (default: from its metadata)")
		gcEvery := fs.Duration("gc-every", 0, "with --store and --blobs: delete the objects no workspace refers to every `DURATION`, as 'llmfs ws gc' does (0: never)")
		gcGrace := fs.Duration("gc-grace", sqlstore.DefaultGrace, "with --gc-every: delete only objects older than `DURATION` (longer than any write in flight)")
		webPage := fs.Bool("web", false, "also serve the console on the in-browser core at /demo/ (llmfs in WebAssembly over IndexedDB; no token needed, it touches no server files)")
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
			if (f.ws.set("oauth-issuer") || f.ws.set("oauth-audience") || f.ws.set("oauth-jwks")) && (f.ws.storeDSN == "" || f.ws.workspace != "") {
				return usagef("--oauth-issuer and its kin apply when serving every workspace of --store (no --workspace)")
			}
			stopGC, err := startGC(ctx, f.ws, *gcEvery, *gcGrace, logger)
			if err != nil {
				return err
			}
			defer stopGC()
			if f.ws.storeDSN != "" && f.ws.workspace == "" {
				if f.ws.set("token") || f.ws.set("session-timeout") || f.ws.set("max-sessions") || *webPage || f.memories != "" {
					return usagef("serving every workspace of --store (no --workspace), access is by 'llmfs ws token': --token, --session-timeout, --max-sessions, --memories and --web do not apply")
				}
				return serveFleet(ctx, e, &f, fleetConfig{addr: *addr, allowHosts: allowHosts, maxBody: *maxBody, memBudget: *memBudget, maxOpen: *maxOpen, dbConns: *dbConns,
					oauthIssuer: *oauthIssuer, oauthAudience: *oauthAudience, oauthJWKS: *oauthJWKS}, logger)
			}
			srv, err := f.server(e, logger)
			if err != nil {
				return err
			}
			// Listen first: a token printed by a server that then fails is a token for nothing.
			ln, err := listen(*addr)
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
			mux.Handle("/", console.Handler(f.first, console.Options{Token: tok, Hosts: append([]string{host}, allowHosts...), System: f.ws.sysOptions(f.first), SystemOff: f.ws.agentMDOff(f.first)}))
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

			return runHTTP(ctx, hs, ln, logger, func() {
				for ss := range srv.MCP().Sessions() {
					ss.Close()
				}
			})
		}
	},
}

// runHTTP serves hs on ln until ctx ends, then shuts it down gracefully; closeStreams
// ends what would hold the shutdown up (MCP sessions with open event streams).
func runHTTP(ctx context.Context, hs *http.Server, ln net.Listener, logger *slog.Logger, closeStreams func()) error {
	stopping, stop := context.WithCancel(context.Background())
	defer stop()
	hs.Handler = endReadsOnShutdown(hs.Handler, stopping)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	// End the GET requests in flight: the console's live feeds (one per open tab) and the
	// MCP event streams are GETs that last until the client goes, and would hold Shutdown
	// for its whole timeout (issue 33).
	stop()
	// Stop accepting, and close the MCP sessions: their open event streams would
	// hold Shutdown for its whole timeout. A call still running is cancelled; its
	// writes, atomic, happen whole or not at all.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- hs.Shutdown(shutdownCtx) }()
	closeStreams()
	if err := <-done; err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

// endReadsOnShutdown cancels the context of next's GET requests when stopping ends. A GET
// changes nothing, so ending one loses nothing; a request that writes runs to its end.
func endReadsOnShutdown(next http.Handler, stopping context.Context) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		defer context.AfterFunc(stopping, cancel)()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
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
