package mcpserver

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/llmfs/llmfs/mcpserver/internal/unescape"

	"github.com/llmfs/llmfs/internal/hostcheck"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"
)

// HTTPOptions configure [NewHTTPHandler]. The zero value (or nil) asks for no token, which
// only suits tests: give one.
type HTTPOptions struct {
	// Token is the bearer token every request must carry ("Authorization: Bearer TOKEN").
	// A missing or wrong token gets 401. Empty: no authentication.
	Token string
	// Hosts are the host names, besides the loopback ones (localhost, 127.0.0.1, ::1),
	// that the Host header and an Origin header may name: typically the host of the
	// address the server listens on. Anything else gets 403, which defeats DNS rebinding
	// and cross-origin requests from web pages.
	Hosts []string
	// MaxBodyBytes bounds a request body; a bigger one gets 413. Default
	// [DefaultMaxBodyBytes].
	MaxBodyBytes int64
	// SessionTimeout closes a session that has had no request for this long, so clients
	// that vanish without ending their session do not pile up. Zero means
	// [DefaultSessionTimeout]; negative, never.
	SessionTimeout time.Duration
	// MaxSessions caps the sessions open at once: past it a new session gets 503 until one
	// ends or times out, so a client opening sessions in a loop cannot exhaust memory
	// (each costs one or two goroutines and about 11 KB of heap and stack until its
	// timeout, as TestHTTPSessionCost measures; 10,000 idle sessions, about 110 MB). Zero means
	// [DefaultMaxSessions]; negative, no cap. Initializations racing at the cap may
	// overshoot it by their number.
	MaxSessions int
	// MemoryBudget bounds the memory the requests in flight may take, in bytes. A request
	// is reckoned to take [RequestCostFactor] times its body (decoding and writing copy
	// it several times); one that would go over waits its turn, for up to BudgetWait,
	// and then gets 503. A request bigger than the whole budget runs alone. Zero means
	// [DefaultMemoryBudget]; negative, no budget.
	MemoryBudget int64
	// BudgetWait bounds a request's wait for room in the memory budget. Zero means
	// [DefaultBudgetWait].
	BudgetWait time.Duration
	// Logger receives one structured line per request; nil discards them.
	Logger *slog.Logger
}

// DefaultMemoryBudget is the default of [HTTPOptions.MemoryBudget]: room for one write of
// the largest default body, or many small calls.
const DefaultMemoryBudget = 128 << 20

// RequestCostFactor is the memory a request is reckoned to take per byte of its body.
const RequestCostFactor = 8

// DefaultBudgetWait is the default of [HTTPOptions.BudgetWait]: long enough for a queue of
// large writes on a slow disk.
const DefaultBudgetWait = 2 * time.Minute

// DefaultSessionTimeout is the default of [HTTPOptions.SessionTimeout].
const DefaultSessionTimeout = time.Hour

// DefaultMaxSessions is the default of [HTTPOptions.MaxSessions].
const DefaultMaxSessions = 10000

// DefaultMaxBodyBytes is the default of [HTTPOptions.MaxBodyBytes]: room for a large write.
const DefaultMaxBodyBytes = 16 << 20

// NewHTTPHandler serves srv over streamable HTTP, one MCP session per client session
// (Mcp-Session-Id), after checking the Host and Origin headers and the bearer token.
// Mount it where clients expect it, conventionally at /mcp.
//
// Requests of the stateless 2026-07-28 revision are served statelessly, unless srv needs
// a session per client: with read-before-edit on (the rtc default), reads must be
// tracked per client, which a stateless request cannot say; such a server refuses
// 2026-07-28 over HTTP, and clients fall back to 2025-11-25 (as the go-sdk and
// TypeScript clients do). Over standard input and output the connection is the session,
// and 2026-07-28 is served in full.
func NewHTTPHandler(server *Server, opts *HTTPOptions) http.Handler {
	srv := server.mcp
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	switch {
	case o.SessionTimeout == 0:
		o.SessionTimeout = DefaultSessionTimeout
	case o.SessionTimeout < 0:
		o.SessionTimeout = 0 // the go-sdk's "never"
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Logger:              o.Logger,
		MaxRequestBodyBytes: o.MaxBodyBytes,
		SessionTimeout:      o.SessionTimeout,
	})
	// 2026-07-28 is stateless over HTTP: its requests, which name their revision in the
	// MCP-Protocol-Version header, go to a stateless handler; the older revisions keep
	// their sessions (read tracker, roots, subscriptions) on the other.
	var statelessHandler http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Logger:              o.Logger,
		MaxRequestBodyBytes: o.MaxBodyBytes,
		Stateless:           true,
	})
	if server.sessionful {
		statelessHandler = nil
	}
	h := newFront(&o, mcpHandler)
	h.stateless, h.srv, h.token, h.maxSessions = statelessHandler, srv, o.Token, o.MaxSessions
	return h
}

// NewFrontHandler returns the checks of [NewHTTPHandler] in front of next, for a handler
// of several servers (package fleet's): the Host and Origin headers, the body size, the
// memory budget, the request log; and auth, in place of the bearer token check: it
// answers the request itself (401, 403) and returns false, or returns the request to
// serve. Of opts, Token, SessionTimeout and
// MaxSessions do not apply.
func NewFrontHandler(opts *HTTPOptions, next http.Handler, auth func(http.ResponseWriter, *http.Request) (*http.Request, bool)) http.Handler {
	o := *opts
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	h := newFront(&o, next)
	h.auth = auth
	return h
}

// newFront returns the checks every HTTP request passes before it reaches next: Host and
// Origin, body size, memory budget, and the request log. o has its defaults filled.
func newFront(o *HTTPOptions, next http.Handler) *httpHandler {
	hosts := hostcheck.Loopback(o.Hosts...)
	h := &httpHandler{next: next, hosts: hosts, maxBody: o.MaxBodyBytes, logger: o.Logger}
	if o.MemoryBudget == 0 {
		o.MemoryBudget = DefaultMemoryBudget
	}
	if o.MemoryBudget > 0 {
		h.budget, h.budgetSize, h.budgetWait = semaphore.NewWeighted(o.MemoryBudget), o.MemoryBudget, o.BudgetWait
		if h.budgetWait <= 0 {
			h.budgetWait = DefaultBudgetWait
		}
	}
	return h
}

type httpHandler struct {
	next      http.Handler
	stateless http.Handler // for 2026-07-28 and later
	srv       *mcp.Server  // nil: no session cap
	token     string
	// auth, when set, replaces the token check: it answers the request itself (401,
	// 403) and returns false, or returns the request to serve (with what it learned
	// in the context).
	auth        func(w http.ResponseWriter, r *http.Request) (*http.Request, bool)
	hosts       hostcheck.Names
	maxBody     int64
	maxSessions int // <= 0: no cap
	logger      *slog.Logger
	budget      *semaphore.Weighted // nil: no memory budget
	budgetSize  int64
	budgetWait  time.Duration
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	rec.body = unescape.Writer{W: w}
	h.serve(rec, r)
	rec.body.Flush()
	level := slog.LevelInfo
	if rec.status >= 400 {
		level = slog.LevelWarn
	}
	session := r.Header.Get("Mcp-Session-Id")
	if session == "" {
		session = w.Header().Get("Mcp-Session-Id") // an initialize: the session it made
	}
	h.logger.LogAttrs(r.Context(), level, "request",
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", rec.status),
		slog.Int64("bytes", rec.bytes),
		slog.Duration("duration", time.Since(start)),
		slog.String("remote", r.RemoteAddr),
		slog.String("session", session),
	)
}

func (h *httpHandler) serve(w http.ResponseWriter, r *http.Request) {
	if !h.hosts.Host(r.Host) {
		http.Error(w, "Forbidden: the Host header must name this server", http.StatusForbidden)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !h.hosts.Origin(origin) {
		http.Error(w, "Forbidden: cross-origin request", http.StatusForbidden)
		return
	}
	if h.auth != nil {
		var ok bool
		if r, ok = h.auth(w, r); !ok {
			return
		}
	} else if h.token != "" && !h.authorized(r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="llmfs"`)
		http.Error(w, "Unauthorized: a valid bearer token is required", http.StatusUnauthorized)
		return
	}
	if r.ContentLength > h.maxBody {
		http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
		return
	}
	if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && h.full() {
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Service Unavailable: too many open sessions", http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodPost && h.budget != nil {
		cost, ok := h.reserve(r)
		if !ok {
			w.Header().Set("Retry-After", "10")
			http.Error(w, "Service Unavailable: the server's memory budget is taken by requests in flight; retry", http.StatusServiceUnavailable)
			return
		}
		defer h.budget.Release(cost)
	}
	r = liftListDirHTTP(r, h.maxBody)
	if h.stateless != nil && r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
		h.stateless.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), statelessKey{}, true)))
		return
	}
	h.next.ServeHTTP(w, r)
}

// reserve waits for room in the memory budget for the request r and returns what it took,
// or false when no room came in time or the client went away.
func (h *httpHandler) reserve(r *http.Request) (int64, bool) {
	body := r.ContentLength
	if body < 0 {
		body = h.maxBody // unknown (chunked): as much as it may be
	}
	cost := min(RequestCostFactor*max(body, 1), h.budgetSize)
	ctx, cancel := context.WithTimeout(r.Context(), h.budgetWait)
	defer cancel()
	if err := h.budget.Acquire(ctx, cost); err != nil {
		return 0, false
	}
	return cost, true
}

// full reports whether the sessions open have reached the cap.
func (h *httpHandler) full() bool {
	if h.maxSessions <= 0 || h.srv == nil {
		return false
	}
	n := 0
	for range h.srv.Sessions() {
		if n++; n >= h.maxSessions {
			return true
		}
	}
	return false
}

func (h *httpHandler) authorized(header string) bool {
	token, ok := bearer(header)
	return ok && subtle.ConstantTimeCompare([]byte(token), []byte(h.token)) == 1
}

// statusRecorder remembers the status and size of a response for the request log, and
// undoes the go-sdk's HTML escapes in the body (see [unescape.Writer]). It passes Flush on,
// which server-sent events need.
type statusRecorder struct {
	http.ResponseWriter
	body   unescape.Writer // writes to ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	n, err := s.body.Write(b)
	s.bytes += int64(n)
	return n, err
}

func (s *statusRecorder) Flush() {
	s.body.Flush()
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// bearer returns the token of an Authorization header of the Bearer scheme.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
