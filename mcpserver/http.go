package mcpserver

import (
	"crypto/subtle"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	// (each costs a goroutine and a few kilobytes until its timeout). Zero means
	// [DefaultMaxSessions]; negative, no cap. Initializations racing at the cap may
	// overshoot it by their number.
	MaxSessions int
	// Logger receives one structured line per request; nil discards them.
	Logger *slog.Logger
}

// DefaultSessionTimeout is the default of [HTTPOptions.SessionTimeout].
const DefaultSessionTimeout = time.Hour

// DefaultMaxSessions is the default of [HTTPOptions.MaxSessions].
const DefaultMaxSessions = 10000

// DefaultMaxBodyBytes is the default of [HTTPOptions.MaxBodyBytes]: room for a large write.
const DefaultMaxBodyBytes = 16 << 20

// NewHTTPHandler serves srv over streamable HTTP, one MCP session per client session
// (Mcp-Session-Id), after checking the Host and Origin headers and the bearer token.
// Mount it where clients expect it, conventionally at /mcp.
func NewHTTPHandler(srv *mcp.Server, opts *HTTPOptions) http.Handler {
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
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	for _, h := range o.Hosts {
		hosts = append(hosts, strings.ToLower(strings.Trim(h, "[]")))
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Logger:              o.Logger,
		MaxRequestBodyBytes: o.MaxBodyBytes,
		SessionTimeout:      o.SessionTimeout,
	})
	return &httpHandler{next: mcpHandler, srv: srv, token: o.Token, hosts: hosts, maxBody: o.MaxBodyBytes,
		maxSessions: o.MaxSessions, logger: o.Logger}
}

type httpHandler struct {
	next        http.Handler
	srv         *mcp.Server
	token       string
	hosts       []string
	maxBody     int64
	maxSessions int // <= 0: no cap
	logger      *slog.Logger
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	rec.body = unescaper{w: w}
	h.serve(rec, r)
	rec.body.flush()
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
	if !h.allowedHost(hostOnly(r.Host)) {
		http.Error(w, "Forbidden: the Host header must name this server", http.StatusForbidden)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || !h.allowedHost(u.Hostname()) {
			http.Error(w, "Forbidden: cross-origin request", http.StatusForbidden)
			return
		}
	}
	if h.token != "" && !h.authorized(r.Header.Get("Authorization")) {
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
	h.next.ServeHTTP(w, r)
}

// full reports whether the sessions open have reached the cap.
func (h *httpHandler) full() bool {
	if h.maxSessions <= 0 {
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
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(h.token)) == 1
}

func (h *httpHandler) allowedHost(host string) bool {
	return slices.Contains(h.hosts, strings.ToLower(host))
}

// hostOnly returns the host name of a Host header, without port or brackets.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// statusRecorder remembers the status and size of a response for the request log, and
// undoes the go-sdk's HTML escapes in the body (see [unescaper]). It passes Flush on,
// which server-sent events need.
type statusRecorder struct {
	http.ResponseWriter
	body   unescaper // writes to ResponseWriter
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
	s.body.flush()
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
