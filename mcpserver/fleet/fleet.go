// Package fleet serves many llmfs workspaces over MCP from one HTTP handler, each at its
// own path, to clients holding a token of that workspace ([Grant]: a workspace and a
// mode), over stateless streamable HTTP, so replicas sharing a database need no sticky
// sessions. [OAuth] adds JWT access tokens of an OAuth authorization server.
package fleet

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
)

// A fleet serves many workspaces from one handler, each at Prefix + its id, to clients
// holding a token for that workspace. Requests are stateless (the go-sdk's stateless
// streamable HTTP): nothing a request needs lives in the process, so any number of
// replicas behind one address can share a database with no sticky sessions, and a
// replica that restarts loses nothing. The price is what only a session can hold: no
// read-before-edit (a fleet refuses [mcpserver.Options.RequireRead]), no roots/list (use
// [mcpserver.RootsMetaKey]), and notifications only on a request's own stream:
// subscriptions/listen (2026-07-28) works, resources/subscribe is refused, since it
// would end with its request.

// A Grant is what a token allows: one workspace, in one mode.
type Grant struct {
	Workspace string
	Mode      llmfs.Mode
	// Actor is the journal's name for the changes made under the grant ("mcp:token-ID");
	// empty: one made up per request.
	Actor string
}

// ErrUnauthorized is what [Options.Authorize] wraps for a token that grants nothing
// (malformed, unknown, revoked, expired); the client gets 401.
var ErrUnauthorized = errors.New("invalid token")

// Options configure [NewHandler].
type Options struct {
	// Authorize returns the grant of a bearer token for the workspace the request
	// asks for (a token granting several, as OAuth scopes may, returns its grant for that
	// one; a token granting only others returns any of its grants), or an error
	// wrapping [ErrUnauthorized] (401); any other error is a 500. Required.
	Authorize func(ctx context.Context, token, workspace string) (Grant, error)
	// ResourceMetadata, when set, is the URL of the server's OAuth Protected Resource
	// Metadata, named in the WWW-Authenticate header of a 401 (RFC 9728), so an OAuth
	// client can find the authorization server.
	ResourceMetadata string
	// Open opens workspace id in mode, or fails with an error wrapping [fs.ErrNotExist]
	// (404). It is called when a workspace is first asked for and again after the
	// workspace has been evicted from the cache. Required.
	Open func(ctx context.Context, id string, mode llmfs.Mode) (*llmfs.Workspace, error)
	// Server is the template of each workspace's server (dialect, name, intervals).
	// Roots must be empty and RequireRead nil or false. Nil means the defaults.
	Server *mcpserver.Options
	// HTTP sets the Host check, body limit, memory budget and log, shared by every
	// workspace; its Token, SessionTimeout and MaxSessions do not apply. Nil means the
	// defaults.
	HTTP *mcpserver.HTTPOptions
	// Prefix is the path under which workspaces are served: Prefix + id. Default "/mcp/".
	Prefix string
	// MaxOpen bounds the workspaces kept open (one per workspace and mode); past it the
	// least recently used is dropped, and its requests in flight finish on it. Default
	// [DefaultMaxOpen].
	MaxOpen int
}

// DefaultMaxOpen is the default of [Options.MaxOpen]. An open workspace keeps its
// server, about 20 KB of heap (its store, for SQL, is a handle on the shared database),
// and opening one costs about 2.5 ms of CPU (the go-sdk compiles each tool's schemas):
// a bound below the number of workspaces in use makes every request pay that.
const DefaultMaxOpen = 256

// NewHandler returns a handler serving the workspaces [Options.Open] opens, one
// at Prefix + id each, over stateless streamable HTTP. Every request must carry
// "Authorization: Bearer TOKEN" with a token whose grant names the workspace of the
// path: no token, or one that grants nothing, gets 401; a token of another workspace
// gets 403, whether or not the workspace of the path exists; the token's mode is the
// mode the workspace is served in (tools it forbids are not listed, and calling them is
// PERMISSION_DENIED).
func NewHandler(opts *Options) (http.Handler, error) {
	if opts == nil || opts.Authorize == nil || opts.Open == nil {
		return nil, errors.New("fleet: a fleet needs Authorize and Open")
	}
	f := &fleet{authorize: opts.Authorize, metadata: opts.ResourceMetadata, open: opts.Open, prefix: opts.Prefix, max: opts.MaxOpen,
		byKey: map[grantKey]*list.Element{}, lru: list.New()}
	if opts.Server != nil {
		f.server = *opts.Server
	}
	if len(f.server.Roots) > 0 {
		return nil, errors.New("fleet: a fleet serves one directory per workspace: no Roots")
	}
	if f.server.RequireRead != nil && *f.server.RequireRead {
		return nil, errors.New("fleet: a fleet is stateless and cannot track reads per client: no RequireRead")
	}
	f.server.RequireRead = new(false)
	f.server.Stateless = true
	if f.prefix == "" {
		f.prefix = "/mcp/"
	}
	if f.max <= 0 {
		f.max = DefaultMaxOpen
	}
	var o mcpserver.HTTPOptions
	if opts.HTTP != nil {
		o = *opts.HTTP
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = mcpserver.DefaultMaxBodyBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	f.mcp = mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if e, ok := r.Context().Value(entryKey{}).(*entry); ok {
			return e.srv.MCP()
		}
		return nil
	}, &mcp.StreamableHTTPOptions{Logger: o.Logger, MaxRequestBodyBytes: o.MaxBodyBytes, Stateless: true})
	return mcpserver.NewFrontHandler(&o, http.HandlerFunc(f.serve), f.auth), nil
}

type fleet struct {
	authorize func(context.Context, string, string) (Grant, error)
	metadata  string
	open      func(context.Context, string, llmfs.Mode) (*llmfs.Workspace, error)
	server    mcpserver.Options
	prefix    string
	max       int
	mcp       http.Handler

	mu    sync.Mutex
	byKey map[grantKey]*list.Element // of *entry
	lru   *list.List                 // most recently used first
}

type grantKey struct {
	id   string
	mode llmfs.Mode
}

// An entry is one open workspace, in one mode, and its server. ready is closed once
// srv or err is set.
type entry struct {
	key   grantKey
	ready chan struct{}
	srv   *mcpserver.Server
	err   error
}

type (
	grantKeyCtx struct{}
	entryKey    struct{}
)

// auth checks the token against the workspace of the path.
func (f *fleet) auth(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	id, ok := f.workspaceOf(r)
	if !ok {
		http.NotFound(w, r)
		return nil, false
	}
	token, ok := bearer(r.Header.Get("Authorization"))
	var g Grant
	var err error
	if ok {
		g, err = f.authorize(r.Context(), token, id)
	}
	switch {
	case !ok || errors.Is(err, ErrUnauthorized):
		challenge := `Bearer realm="llmfs"`
		if f.metadata != "" {
			challenge += `, resource_metadata="` + f.metadata + `"`
		}
		if ok {
			challenge += `, error="invalid_token"`
		}
		w.Header().Set("WWW-Authenticate", challenge)
		http.Error(w, "Unauthorized: a valid bearer token is required", http.StatusUnauthorized)
		return nil, false
	case err != nil:
		http.Error(w, "Internal Server Error: checking the token failed", http.StatusInternalServerError)
		return nil, false
	case g.Workspace != id:
		w.Header().Set("WWW-Authenticate", `Bearer realm="llmfs", error="insufficient_scope"`)
		http.Error(w, "Forbidden: the token does not grant this workspace", http.StatusForbidden)
		return nil, false
	case !g.Mode.Valid() || g.Mode == "":
		http.Error(w, "Forbidden: the token grants no valid mode", http.StatusForbidden)
		return nil, false
	}
	ctx := context.WithValue(r.Context(), grantKeyCtx{}, grantKey{id: id, mode: g.Mode})
	if g.Actor != "" {
		ctx = mcpserver.WithActor(ctx, g.Actor)
	}
	return r.WithContext(ctx), true
}

// workspaceOf returns the workspace id of the request's path: one path element after
// the prefix.
func (f *fleet) workspaceOf(r *http.Request) (string, bool) {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), f.prefix)
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	id, err := url.PathUnescape(rest)
	return id, err == nil && id != "" && !strings.Contains(id, "/")
}

func (f *fleet) serve(w http.ResponseWriter, r *http.Request) {
	key := r.Context().Value(grantKeyCtx{}).(grantKey)
	e := f.get(r.Context(), key)
	switch {
	case errors.Is(e.err, fs.ErrNotExist):
		http.NotFound(w, r)
		return
	case e.err != nil:
		http.Error(w, "Internal Server Error: opening the workspace failed", http.StatusInternalServerError)
		return
	}
	f.mcp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), entryKey{}, e)))
}

// get returns the open entry of key, opening it if need be. A failed open is not
// cached: the next request tries again.
func (f *fleet) get(ctx context.Context, key grantKey) *entry {
	f.mu.Lock()
	if el, ok := f.byKey[key]; ok {
		f.lru.MoveToFront(el)
		e := el.Value.(*entry)
		f.mu.Unlock()
		select {
		case <-e.ready:
			return e
		case <-ctx.Done():
			return &entry{err: ctx.Err()}
		}
	}
	e := &entry{key: key, ready: make(chan struct{})}
	f.byKey[key] = f.lru.PushFront(e)
	for f.lru.Len() > f.max {
		old := f.lru.Back()
		f.lru.Remove(old)
		delete(f.byKey, old.Value.(*entry).key)
	}
	f.mu.Unlock()

	// Opened outside the lock, and not under the request's context: other requests
	// may be waiting for this entry.
	ws, err := f.open(context.WithoutCancel(ctx), key.id, key.mode)
	if err == nil && rank(ws.Settings().Mode) > rank(key.mode) {
		// Open must honour the grant: refuse rather than serve more than it allows.
		err = fmt.Errorf("fleet: Open gave mode %s for a %s grant", ws.Settings().Mode, key.mode)
	}
	if err == nil {
		e.srv, err = mcpserver.New(ws, &f.server)
	}
	e.err = err
	close(e.ready)
	if err != nil {
		f.mu.Lock()
		if el, ok := f.byKey[key]; ok && el.Value.(*entry) == e {
			f.lru.Remove(el)
			delete(f.byKey, key)
		}
		f.mu.Unlock()
	}
	return e
}

// rank orders the modes by what they allow.
func rank(m llmfs.Mode) int {
	switch m {
	case llmfs.ReadOnly:
		return 0
	case llmfs.ReadWrite:
		return 1
	default:
		return 2
	}
}

// bearer returns the token of an Authorization header of the Bearer scheme.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
