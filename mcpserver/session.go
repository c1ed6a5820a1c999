package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// session is the state of one MCP session: a toolbox per directory, each over a workspace
// session of its own (so reads are tracked per MCP session), and the client's roots.
type session struct {
	toolboxes []*tools.Toolbox // index-aligned with server.roots

	// stale says the client's roots must be fetched before the next call. It is not under
	// mu: a roots/list_changed notification must never wait for a roots/list call in
	// flight, whose answer may come behind it.
	stale atomic.Bool

	// listing says the session holds the journal feeds for list_changed (it listed
	// resources; see listenMiddleware).
	listing atomic.Bool

	mu      sync.Mutex // guards allowed and serializes roots/list calls
	allowed []string   // directories the client's roots leave; nil: no narrowing
}

// session returns the state of ss, making it on first use. It is dropped when ss ends.
//
// A stateless request's session lasts the request: its actor is the one [WithActor] put
// in ctx, if any.
func (s *server) session(ctx context.Context, ss *mcp.ServerSession) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.sessions[ss]; ok {
		return st, nil
	}
	st := &session{}
	_, http := ctx.Value(statelessKey{}).(bool)
	actor := sessionActor(ss, http) // the journal's name for this session's changes
	if a, ok := ctx.Value(actorKey{}).(string); ok && a != "" {
		actor = a
	}
	for i, r := range s.roots {
		// A session of its own, so its reads are its own; NewWithOptions switches
		// read-before-edit on or off as asked. Relative paths resolve against the first
		// directory, so results in the others are shown absolute.
		opts := &tools.Options{RequireRead: s.requireRead, AbsolutePaths: i > 0, History: s.history}
		if s.memories != nil {
			opts.Memories = s.memories.With(llmfs.Actor(actor))
		}
		tb, err := tools.NewWithOptions(r.With(llmfs.Actor(actor)), s.dialect, opts)
		if err != nil {
			return nil, err
		}
		st.toolboxes = append(st.toolboxes, tb)
	}
	//lint:ignore SA1019 roots stay for clients before 2026-07-28, within the deprecation window
	// Roots are asked only of clients before 2026-07-28, which has none (a server may
	// not send roots/list there).
	if p := ss.InitializeParams(); p != nil && p.ProtocolVersion < "2026-07-28" && p.Capabilities != nil && p.Capabilities.RootsV2 != nil && !s.roots[0].Settings().Relaxed {
		st.stale.Store(true)
	}
	s.sessions[ss] = st
	go func() {
		ss.Wait()
		s.dropWatch("", ss)
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
	}()
	return st, nil
}

// RootsMetaKey is the _meta key of a request that narrows the directories for that
// request: a list of file:// URIs, the non-deprecated counterpart of client roots.
const RootsMetaKey = "io.github.llmfs/roots"

// rootsChangedMiddleware marks the session's client roots for fetching before its next
// call when the client says they changed. It is a middleware rather than the go-sdk's
// deprecated RootsListChangedHandler option.
func (s *server) rootsChangedMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/roots/list_changed" {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
				if st, err := s.session(ctx, ss); err == nil {
					st.stale.Store(!s.roots[0].Settings().Relaxed)
				}
			}
		}
		return next(ctx, method, req)
	}
}

// metaNarrow narrows allowed (nil: everything) by the directories a request names under
// [RootsMetaKey] in meta. A key that is not a list of strings narrows to nothing, so a
// malformed request cannot escape a narrowing it meant.
func (s *server) metaNarrow(meta map[string]any, allowed []string) []string {
	v, ok := meta[RootsMetaKey]
	if !ok || s.roots[0].Settings().Relaxed {
		return allowed
	}
	list, _ := v.([]any)
	var uris []string
	for _, u := range list {
		if str, ok := u.(string); ok {
			uris = append(uris, str)
		}
	}
	narrowed := s.intersect(clientDirs(uris))
	if narrowed == nil || len(uris) != len(list) {
		narrowed = []string{} // named nothing usable: allow nothing
	}
	if allowed == nil {
		return narrowed
	}
	out := []string{}
	for _, m := range narrowed {
		for _, a := range allowed {
			switch {
			case within(a, m):
				out = append(out, m)
			case within(m, a):
				out = append(out, a)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// call routes one tool call to the toolbox of the directory that holds its paths, after
// checking them against the client's roots.
func (s *server) call(ctx context.Context, req *mcp.CallToolRequest, name string, keys []string) (*tools.Result, error) {
	st, err := s.session(ctx, req.Session)
	if err != nil {
		return nil, err
	}
	allowed, err := s.allowed(ctx, req.Session, st)
	if err != nil {
		return nil, err
	}
	allowed = s.metaNarrow(req.Params.Meta, allowed)
	args := json.RawMessage(req.Params.Arguments)
	i, err := s.route(args, keys, allowed)
	if err != nil {
		return nil, err
	}
	return st.toolboxes[i].CallResult(ctx, name, args)
}

// allowed returns the directories the session may use after its client's roots, or nil
// for all of them, asking the client first if its roots are not known yet.
func (s *server) allowed(ctx context.Context, ss *mcp.ServerSession, st *session) ([]string, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.stale.Swap(false) {
		return st.allowed, nil
	}
	lctx, cancel := context.WithTimeout(ctx, s.rootsTimeout)
	defer cancel()
	//lint:ignore SA1019 roots stay for clients before 2026-07-28, within the deprecation window
	res, err := ss.ListRoots(lctx, nil)
	if err != nil && ctx.Err() != nil {
		// The call itself ended (cancelled by the client): it must not pass unchecked,
		// and the next call asks again.
		st.stale.Store(true)
		return nil, &llmfs.Error{Code: llmfs.CodeIO, Msg: "the call ended while asking the client for its roots", Err: ctx.Err()}
	}
	if err != nil {
		// Keep the directories as they are, as the reference server does, until the
		// next roots/list_changed: asking at every call would make each wait for the
		// timeout when a client never answers.
		s.logger.Warn("listing the client's roots failed; not narrowing", "session", ss.ID(), "error", err)
		return st.allowed, nil
	}
	uris := make([]string, len(res.Roots))
	for i, r := range res.Roots {
		uris[i] = r.URI
	}
	st.allowed = s.intersect(clientDirs(uris))
	s.logger.Info("client roots", "session", ss.ID(), "roots", len(res.Roots), "allowed", st.allowed)
	return st.allowed, nil
}

// clientDirs returns the directories of the file:// roots, cleaned and with symbolic links
// resolved where they exist, so they compare with the canonical server directories.
func clientDirs(uris []string) []string {
	var dirs []string
	for _, uri := range uris {
		u, err := url.Parse(uri)
		if err != nil || u.Scheme != "file" || u.Path == "" || u.Host != "" && u.Host != "localhost" {
			continue
		}
		dir := path.Clean(u.Path)
		if real, err := filepath.EvalSymlinks(filepath.FromSlash(dir)); err == nil {
			dir = filepath.ToSlash(real)
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// intersect returns the parts of the server's directories that lie within the client's:
// a client directory inside a server one, or a server directory inside a client one.
// No client directory at all means no narrowing (nil); directories that share nothing
// give an empty, non-nil list, which allows nothing.
func (s *server) intersect(client []string) []string {
	if len(client) == 0 {
		return nil
	}
	out := []string{}
	for _, c := range client {
		for _, r := range s.roots {
			switch {
			case within(r.Root(), c):
				out = append(out, c)
			case within(c, r.Root()):
				out = append(out, r.Root())
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// route returns the index of the directory whose toolbox must run a call with arguments
// args, checking every path argument (keys) against the allowed directories. Arguments
// that do not decode are left to the toolbox's strict decoder, which refuses them.
func (s *server) route(args json.RawMessage, keys []string, allowed []string) (int, error) {
	if len(s.roots) == 1 && allowed == nil {
		return 0, nil
	}
	var obj map[string]json.RawMessage
	if len(args) > 0 && json.Unmarshal(args, &obj) != nil {
		return 0, nil
	}
	// No arguments at all decode as {} (as in the toolbox): every path is the default.
	owner := -1
	for _, k := range keys {
		var p string
		if raw, ok := obj[k]; ok {
			if json.Unmarshal(raw, &p) != nil {
				return 0, nil // not a string: the decoder says so
			}
		}
		abs, i, err := s.locate(p)
		if err != nil {
			return 0, err
		}
		if allowed != nil && !slices.ContainsFunc(allowed, func(dir string) bool { return within(dir, abs) }) {
			return 0, &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: p,
				Msg: fmt.Sprintf("path is outside the client's roots (allowed: %s): %s", strings.Join(allowed, ", "), display(p))}
		}
		if owner >= 0 && i != owner {
			return 0, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Path: p,
				Msg: fmt.Sprintf("the paths are in different served directories (%s and %s); a move or copy stays within one", s.roots[owner].Root(), s.roots[i].Root())}
		}
		owner = i
	}
	return max(owner, 0), nil
}

// locate returns the absolute host path of the path argument p ("" when absent: the
// default directory) and the index of the directory that holds it.
func (s *server) locate(p string) (string, int, error) {
	root0 := s.roots[0]
	if tools.IsVirtual(s.dialect) {
		// A virtual path: "/" is the root; ".." is refused by the tool itself.
		return path.Join(root0.Root(), path.Clean("/"+p)), 0, nil
	}
	if p == "" || !path.IsAbs(p) {
		return path.Join(root0.Root(), p), 0, nil
	}
	abs := path.Clean(p)
	if root0.Settings().Relaxed {
		return abs, 0, nil
	}
	for i, r := range s.roots {
		if r.Paths().Within(abs) {
			return abs, i, nil
		}
	}
	dirs := make([]string, len(s.roots))
	for i, r := range s.roots {
		dirs[i] = r.Root()
	}
	return "", 0, &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: p,
		Msg: fmt.Sprintf("path is outside the served directories (%s): %s", strings.Join(dirs, ", "), p)}
}

func display(p string) string {
	if p == "" {
		return "(the default directory)"
	}
	return p
}

// within reports whether the clean absolute path p is dir or below it, comparing whole
// elements, so "/ws-evil" is not within "/ws".
func within(dir, p string) bool {
	if dir == "/" || p == dir {
		return true
	}
	return strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

// checkRoots refuses directories that nest (a path would have two owners), several
// directories in the rtc dialect (it has one virtual root), and mixed rules.
func (s *server) checkRoots() error {
	if len(s.roots) == 1 {
		return nil
	}
	if tools.IsVirtual(s.dialect) {
		return &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: fmt.Sprintf("the %s dialect serves one directory (its virtual root); give one root", s.dialect)}
	}
	first := s.roots[0]
	for i, a := range s.roots {
		if a.Settings().Mode != first.Settings().Mode || a.Settings().Relaxed != first.Settings().Relaxed {
			return &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: fmt.Sprintf("directory %s has other rules than %s", a.Root(), first.Root())}
		}
		for _, b := range s.roots[:i] {
			if within(a.Root(), b.Root()) || within(b.Root(), a.Root()) {
				return &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: fmt.Sprintf("served directories must not nest: %s and %s", b.Root(), a.Root())}
			}
		}
	}
	return nil
}

// pathKeys returns the names of a tool's path parameters, read from its schema.
func pathKeys(schema json.RawMessage) ([]string, error) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	var keys []string
	for _, k := range []string{"path", "source", "destination"} {
		if _, ok := s.Properties[k]; ok {
			keys = append(keys, k)
		}
	}
	return keys, nil
}

// sessionActor is the journal's actor for the MCP session ss: "mcp:<client>/<id>", the
// client's name as it gave it at initialize (so people see which agent it was), or
// "mcp:<id>" when it gave none. A stdio session has no session ID in the protocol, nor
// has a stateless request over HTTP (http), so each gets a random one, "stdio-" or
// "http-" and 12 characters: two stdio servers on one directory, or one run after
// another, are still told apart in the history.
func sessionActor(ss *mcp.ServerSession, http bool) string {
	id, client := "", ""
	if ss != nil {
		id = ss.ID()
		if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
			client = clientName(p.ClientInfo.Name)
		}
	}
	if id == "" && http {
		id = "http-" + rand.Text()[:12]
	} else if id == "" {
		id = "stdio-" + rand.Text()[:12]
	}
	if client != "" {
		return "mcp:" + client + "/" + id
	}
	return "mcp:" + id
}

// clientName is a client's name as an actor holds it: letters, digits, '.', '_' and '-'
// (anything else a '-'), at most 32 bytes; "" for a name with nothing to keep.
func clientName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() >= 32 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
