// Package mcpserver serves a [llmfs.Workspace] over the Model Context Protocol, on the
// official go-sdk.
//
// Every tool of the chosen dialect (package tools) becomes an MCP tool with its JSON Schema,
// description and annotations. Arguments go through the strict decoder of package tools,
// so an MCP call and a direct [tools.Toolbox.Call] refuse exactly the same input (1.0 or
// "1" for an integer, an unknown key). Every tool has an outputSchema, the JSON Schema of
// its result object. A failure comes back as an isError result whose text starts with the
// error code ("FILE_NOT_FOUND: ...") and whose _meta holds {"code", "message"} under
// [ErrorMetaKey]; a success as structured content (the result object) plus its JSON
// text, except in the rtc dialect's read, whose text is the numbered lines themselves with
// a short trailing note, as Claude Code's Read returns them, in agentool's
// directory_list with names_only, whose text is the names, one a line, and in the codex,
// anthropic and gemini dialects, whose text is what the vendor's own tool prints
// ([tools.Result].Text). A read of a PNG, JPEG, GIF or
// WebP file adds the image as image content, and its structured content and text leave
// the base64 out. No text escapes <, > or &.
//
// Each MCP session gets its own workspace session ([llmfs.NewSession]) and so its
// own read tracker: when the workspace requires reads before edits
// ([llmfs.Options.RequireRead], or [Options.RequireRead] here), one client's reads never
// vouch for another's edits.
//
// # Several directories
//
// A server may serve several directories: the workspace given to [New] and those in
// [Options.Roots]. Relative paths always resolve against the first; an absolute path goes to
// the directory that holds it. The directories must not nest, so every path has at most one
// owner; a move or copy between two of them is refused. The rtc dialect has a single virtual
// root and takes one directory only.
//
// Every path a tool returns leads back to the same file when given to another tool: find
// and grep show paths in the first directory relative to it, and paths in any other
// directory absolute ([tools.Options.AbsolutePaths]); the other tools return absolute
// paths everywhere.
//
// If the client supports MCP roots, the server asks for them before a session's first tool
// call, and again after each roots/list_changed notification, and narrows the session to
// the parts of its directories that lie within a client root. Client roots narrow, never
// widen: a client root outside every directory adds nothing, and roots that share nothing
// with the directories allow nothing. A client that lists no file roots, or fails to answer,
// leaves the directories as they are (as the reference filesystem server does) until its
// next roots/list_changed. Client roots are checked lexically, on top of the directories'
// own sandbox. In relaxed mode there is nothing to narrow, and client roots are ignored.
//
// The server speaks every MCP version the go-sdk does: 2024-11-05 to 2025-11-25, with
// sessions and initialize, and 2026-07-28, stateless. Roots are deprecated in 2026-07-28
// (SEP-2577) and stay for the older clients. The non-deprecated way to narrow the
// directories, for any client, is to name them in each request's _meta under
// [RootsMetaKey], as a list of file:// URIs: they narrow that request exactly as client
// roots narrow a session (and on top of them), never widen it.
//
// # Many workspaces
//
// Package fleet serves many workspaces from one handler, each at its own path, to
// clients holding a token of that workspace, over stateless streamable HTTP.
package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/buildinfo"
	"github.com/llmfs/llmfs/tools"
)

// Options configure a server. The zero value (or nil) serves the agentool dialect.
type Options struct {
	// Dialect is the tool vocabulary; empty means [tools.Agentool].
	Dialect tools.Dialect
	// Roots are more directories to serve besides the workspace given to [New]. They must
	// have the same mode and rules, and must not nest inside one another or the first.
	Roots []*llmfs.Workspace
	// RequireRead switches read-before-edit on or off for every session, whatever the
	// workspaces say ([llmfs.Options.RequireRead]). Nil means the dialect's default
	// ([tools.Options.RequireRead]): on in rtc; in agentool, as the workspace says.
	RequireRead *bool
	// Name and Version identify the server to clients (serverInfo). Defaults: "llmfs" and
	// the build's version ([buildinfo.Version]: the module version, else "devel" and the
	// revision).
	Name, Version string
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
	// RootsTimeout bounds the wait for a client's roots/list answer. Default 10 seconds.
	RootsTimeout time.Duration
	// ProgressInterval is how often a running call whose request carries a progress
	// token reports progress. Default [DefaultProgressInterval]; negative: never.
	ProgressInterval time.Duration
	// ResourcePageSize is the most files a resources/list page holds. Default
	// [DefaultResourcePageSize].
	ResourcePageSize int
	// PollInterval is how often a subscribed resource's file is checked for changes in a
	// workspace without a journal (with one, the journal's feed tells). Default
	// [DefaultPollInterval].
	PollInterval time.Duration
	// HistoryTools offers the model the history tools, history and undo
	// ([tools.Options.History]), besides the dialect's. Off by default. Each session's
	// changes are journaled as its own actor, "mcp:<client>/<session id>", so undo by path takes
	// back that session's changes only.
	HistoryTools bool
	// Memories, in the anthropic dialect, is where the memory tool keeps its notes, seen
	// by the model as /memories ([tools.Options.Memories]); nil: /memories in the first
	// root. Each session works on it as its own actor.
	Memories *llmfs.Workspace

	// Ask names the destructive operations to confirm with the person through the
	// client's elicitation before they run: [AskDelete], [AskMove], [AskApply] (ask.go).
	// A declined, cancelled or impossible confirmation fails with PERMISSION_DENIED.
	Ask []string
	// TaskAfter is how long a tools/call of a client that declares the tasks extension
	// (2026-07-28, [TasksExtension]) runs before it is answered as a task, which the
	// client then polls (tasks.go). Default [DefaultTaskAfter]; negative: never.
	TaskAfter time.Duration

	// Stateless says the server serves stateless requests only (as package fleet's
	// do): a session lasts one request, so nothing is held for its lifetime, and
	// resources/subscribe, which would end with its request, is refused.
	Stateless bool
}

// DefaultRootsTimeout is the default of [Options.RootsTimeout].
const DefaultRootsTimeout = 10 * time.Second

// server is the state behind one *mcp.Server.
type server struct {
	roots        []*llmfs.Workspace // roots[0] is the default for relative paths
	dialect      tools.Dialect
	history      bool // offer the history tools
	requireRead  *bool
	memories     *llmfs.Workspace // the memory tool's notes ([Options.Memories])
	logger       *slog.Logger
	rootsTimeout time.Duration
	// progressInterval: see [Options.ProgressInterval]; 0 sends none.
	progressInterval time.Duration
	pageSize         int
	pollInterval     time.Duration
	srv              *mcp.Server
	watches          watches
	stateless        bool
	ask              askPolicy     // the operations to confirm ([Options.Ask])
	taskAfter        time.Duration // see [Options.TaskAfter]; 0: never
	tasks            tasks

	// writeMu holds a resource write's ifMatch check and its write together.
	writeMu sync.Mutex

	// handlers are the tool handlers given to the go-sdk, by tool name, for
	// [ServeStdio] to call without it. Written only in New.
	handlers map[string]mcp.ToolHandler

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
}

// A Server is an MCP server of llmfs: the go-sdk's server, and what llmfs keeps beside it
// (the workspaces, the sessions' state, the tool handlers). [New] and [NewReviewer] make
// one. Serve it on standard input and output with [ServeStdio] and a [StdioTransport]
// (unlike the go-sdk's, it survives bad lines), with [Server.Run] on any transport, or
// over HTTP with [NewHTTPHandler].
type Server struct {
	mcp *mcp.Server
	// state is llmfs's state of a server made by [New]; nil for a reviewer's.
	state *server
	// sessionful says the server keeps per-client state ([server.needsSessions]).
	sessionful bool
	// exposed is set once [Server.MCP] has handed out the go-sdk server: middleware may
	// have been added to it, which [ServeStdio]'s own tool calls would skip.
	exposed atomic.Bool
}

// MCP returns the go-sdk server inside s, for what llmfs does not wrap: middleware,
// more tools, sessions. From then on [ServeStdio] leaves every call to the go-sdk, so
// that middleware added to it sees every call.
func (s *Server) MCP() *mcp.Server {
	s.exposed.Store(true)
	return s.mcp
}

// Run serves a single session over t until the client disconnects or ctx is done, as
// [mcp.Server.Run] does.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error { return s.mcp.Run(ctx, t) }

// Connect starts a session over t, as [mcp.Server.Connect] does.
func (s *Server) Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, t, opts)
}

// withDefaults returns a copy of o with its defaults filled in, and a negative interval
// ("never") as 0.
func (o Options) withDefaults() Options {
	if o.Dialect == "" {
		o.Dialect = tools.Agentool
	}
	if o.Name == "" {
		o.Name = "llmfs"
	}
	if o.Version == "" {
		o.Version = buildinfo.Version()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.RootsTimeout <= 0 {
		o.RootsTimeout = DefaultRootsTimeout
	}
	if o.ResourcePageSize <= 0 {
		o.ResourcePageSize = DefaultResourcePageSize
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	switch {
	case o.TaskAfter == 0:
		o.TaskAfter = DefaultTaskAfter
	case o.TaskAfter < 0:
		o.TaskAfter = 0
	}
	switch {
	case o.ProgressInterval == 0:
		o.ProgressInterval = DefaultProgressInterval
	case o.ProgressInterval < 0:
		o.ProgressInterval = 0
	}
	return o
}

// New returns an MCP server for ws, with the tools of opts.Dialect that ws's mode allows.
func New(ws *llmfs.Workspace, opts *Options) (*Server, error) {
	if opts == nil {
		opts = &Options{}
	}
	o := opts.withDefaults()
	defs, err := tools.DefinitionsFor(o.Dialect, ws.Settings().Mode, &tools.Options{History: o.HistoryTools})
	if err != nil {
		return nil, err
	}
	ask, err := askSet(o.Ask)
	if err != nil {
		return nil, err
	}
	s := &server{
		ask:              ask,
		taskAfter:        o.TaskAfter,
		roots:            append([]*llmfs.Workspace{ws}, o.Roots...),
		dialect:          o.Dialect,
		history:          o.HistoryTools,
		requireRead:      o.RequireRead,
		memories:         o.Memories,
		logger:           o.Logger,
		rootsTimeout:     o.RootsTimeout,
		progressInterval: o.ProgressInterval,
		pageSize:         o.ResourcePageSize,
		pollInterval:     o.PollInterval,
		watches:          watches{subs: map[string]*watch{}, feeds: map[int]*feedRunning{}},
		stateless:        o.Stateless,
		sessions:         map[*mcp.ServerSession]*session{},
		handlers:         map[string]mcp.ToolHandler{},
	}
	if err := s.checkRoots(); err != nil {
		return nil, err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: o.Name, Title: "llmfs file system", Version: o.Version}, &mcp.ServerOptions{
		Instructions:       s.instructions(),
		Logger:             o.Logger,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
		SetCacheable:       setCacheable,
		// No logging capability: llmfs logs to its own stderr. Prompts: the go-sdk
		// answers prompts/list (with none), and 2026-07-28 wants what is answered declared.
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{Subscribe: true, ListChanged: true},
			Prompts:   &mcp.PromptCapabilities{},
			// Resource writes (resourcewrite.go), experimental: their names may change.
			Experimental: map[string]any{ResourceWriteCapability: map[string]any{"etag": "sha256"}},
			// Long calls as tasks (tasks.go), for the clients that declare the extension.
			Extensions: s.extensions(),
		},
	})
	s.addResources(srv)
	if err := s.addResourceWrites(srv); err != nil {
		return nil, err
	}
	if err := s.addTasks(srv); err != nil {
		return nil, err
	}
	srv.AddReceivingMiddleware(s.rootsChangedMiddleware, s.listenMiddleware)
	if s.taskAfter > 0 {
		srv.AddReceivingMiddleware(s.tasksMiddleware)
	}
	// A tool the mode hides is not listed, but a call of it gets the PERMISSION_DENIED
	// result naming the tools there are, not the go-sdk's "unknown tool".
	all, err := tools.DefinitionsFor(o.Dialect, llmfs.Full, &tools.Options{History: o.HistoryTools})
	if err != nil {
		return nil, err
	}
	hidden := map[string]bool{}
	for _, d := range all {
		if !slices.ContainsFunc(defs, func(e tools.Definition) bool { return e.Name == d.Name }) {
			hidden[d.Name] = true
		}
	}
	if len(hidden) > 0 {
		srv.AddReceivingMiddleware(s.denyHidden(hidden))
	}
	for _, d := range defs {
		keys, err := pathKeys(d.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", d.Name, err)
		}
		handler := s.toolHandler(d.Name, keys)
		s.handlers[d.Name] = handler
		srv.AddTool(&mcp.Tool{
			Name:         d.Name,
			Description:  d.Description,
			InputSchema:  d.InputSchema,
			OutputSchema: d.OutputSchema,
			Annotations:  annotations(d),
		}, handler)
	}
	return &Server{mcp: srv, state: s, sessionful: s.needsSessions()}, nil
}

// extensions are the extensions the server declares: tasks, unless [Options.TaskAfter]
// is negative.
func (s *server) extensions() map[string]any {
	if s.taskAfter <= 0 {
		return nil
	}
	return map[string]any{TasksExtension: map[string]any{}}
}

// toolHandler returns the handler of the tool name, whose path parameters are keys: it
// asks first if [Options.Ask] names its operation, and reports progress while it runs.
func (s *server) toolHandler(name string, keys []string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if op, ok := askKind(name); ok {
			if res := s.ask.tool(ctx, req, op, askMessage(name, req.Params.Arguments)); res != nil {
				return res, nil
			}
		}
		return s.withProgress(ctx, req, func() *mcp.CallToolResult {
			out, err := s.call(ctx, req, name, keys)
			if err != nil && ctx.Err() != nil {
				// notifications/cancelled (or the session's end) cancelled ctx, and
				// the work stopped: say so rather than how it broke off.
				err = &llmfs.Error{Code: llmfs.CodeIO, Msg: "the call was cancelled", Err: err}
			}
			return result(out, err)
		}), nil
	}
}

// needsSessions reports whether the server keeps per-client state that a stateless
// request could not carry: a read tracker.
func (s *server) needsSessions() bool {
	tb, err := tools.NewWithOptions(s.roots[0], s.dialect, &tools.Options{RequireRead: s.requireRead})
	return err != nil || tb.Workspace().Settings().RequireRead
}

// denyHidden answers a call of a tool in hidden (those the mode forbids) with the
// toolbox's PERMISSION_DENIED result.
func (s *server) denyHidden(hidden map[string]bool) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil && hidden[call.Params.Name] {
				out, err := s.call(ctx, call, call.Params.Name, nil)
				return result(out, err), nil
			}
			return next(ctx, method, req)
		}
	}
}

// annotations sets every hint explicitly: the spec's defaults for the pointer hints are true.
func annotations(d tools.Definition) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{
		ReadOnlyHint:    d.ReadOnly,
		DestructiveHint: new(d.Destructive),
		IdempotentHint:  d.Idempotent,
		OpenWorldHint:   new(false), // a closed set of directories, not the open world
	}
}

// ErrorMetaKey is the _meta key of a failed call's result that holds its
// {"code", "message"} object.
const ErrorMetaKey = "io.github.llmfs/error"

// result turns a tool's outcome into an MCP result: a coded error as an isError result
// whose text starts with the code, a success as structured content (the result object)
// plus the text a model reads (its JSON, or the text [tools.Result] gives). A read of
// an image adds it as image content (type "image", base64 data, mimeType), which the
// structured content and text then leave out.
//
// An error carries no structured content: every tool has an outputSchema, and clients
// (the TypeScript SDK among them) check any structured content against it, errors
// included. Its {code, message} goes in _meta under [ErrorMetaKey] instead.
func result(out *tools.Result, err error) *mcp.CallToolResult {
	if err != nil {
		e := tools.ErrorOf(err)
		return &mcp.CallToolResult{
			Meta:    mcp.Meta{ErrorMetaKey: e},
			IsError: true,
			Content: []mcp.Content{&mcp.TextContent{Text: e.Code + ": " + e.Message}},
		}
	}
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: out.Text}},
		StructuredContent: out.JSON,
	}
	if len(out.Images) > 0 {
		// Each image as image content, and the base64 only there: the structured content
		// and its text say what was read without it.
		res.StructuredContent = out.Structured
		for _, img := range out.Images {
			res.Content = append(res.Content, &mcp.ImageContent{Data: img.Data, MIMEType: img.MIMEType})
		}
	}
	return res
}

// instructions tells the client which directories it may use.
func (s *server) instructions() string {
	var b strings.Builder
	b.WriteString("llmfs: file tools confined to ")
	if tools.IsVirtual(s.dialect) {
		b.WriteString("one workspace; paths are virtual and absolute, / is the workspace root.")
		return b.String()
	}
	dirs := make([]string, len(s.roots))
	for i, r := range s.roots {
		dirs[i] = r.Root()
	}
	fmt.Fprintf(&b, "these directories: %s. Relative paths are relative to %s.", strings.Join(dirs, ", "), dirs[0])
	if s.roots[0].Settings().Relaxed {
		b.WriteString(" The server is relaxed: paths may also leave them.")
	}
	return b.String()
}
