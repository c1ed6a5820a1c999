//go:build !js && !wasip1

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp/internal/jsonrpc"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
)

// FileServerOptions configure a [FileServer]. The zero value serves reads and writes.
type FileServerOptions struct {
	// Mode is the work mode. [llmfs.ReadOnly] serves and advertises fs/read_text_file
	// alone; any other mode serves both methods.
	Mode llmfs.Mode
	// Roots are directories every session may reach besides its cwd.
	Roots []string
	// OnChange, if set, is called after each write of the agent, outside any lock.
	OnChange func(Change)
	// Workspace, if not nil, is the template for each root's workspace: its deny rules and
	// quotas apply. Root, Mode and Limits are set by the server.
	Workspace *llmfs.Options
}

// FileServer is the client (editor) side of ACP's fs methods: it serves each session's
// files from an [llmfs.Workspace] on the session's cwd and any roots the editor grants.
//
// Reads honour line (1-based) and limit and return the raw text, however large. A write
// creates the file and its parents if missing, replaces the file atomically, and may write
// empty content. Unsaved editor buffers ([FileServer.SetBuffer]) lie over the disk: reads
// see them, and writes update both the buffer and the disk. Every write of the agent is
// recorded as a [Change] that the editor can list and undo.
//
// A missing path fails with -32002 "Resource not found: PATH" and data.uri. A refused one
// fails with -32602 and a message that says why, and data {"path", "code"} with the llmfs
// code: a path outside the session's roots, also through a symbolic link, whether or not
// it exists ("... is outside the session's roots ...", INVALID_PATH); a path the deny rules
// protect (PERMISSION_DENIED, the rule named); a directory or a device (INVALID_PATH). A
// bad line or limit, a relative path, and an unknown session fail with -32602 as well.
//
// A FileServer is safe for concurrent use. Plug it into a connection with
// [FileServer.Handle], or call [FileServer.ReadTextFile] and [FileServer.WriteTextFile]
// from another JSON-RPC layer.
type FileServer struct {
	opts FileServerOptions

	mu         sync.Mutex
	sessions   map[string][]fsRoot         // by session id; longest root first
	workspaces map[string]*llmfs.Workspace // by canonical root, shared by sessions
	buffers    map[string]string           // by canonical path
	writes     []*write                    // the agent's writes, oldest first

	writeMu sync.Mutex // one write at a time, so each finds its own journal entry
}

type fsRoot struct {
	dir string           // canonical absolute directory
	ws  *llmfs.Workspace // the session's view: its changes are journaled as acp:<session>
}

// rawLimits make a workspace read like an editor: whole files, lines uncut. (The bounds are
// as high as an int allows with room to add to them: 2^61 on 64-bit, 2^29 on 32-bit.)
var rawLimits = llmfs.Limits{MaxReadLines: math.MaxInt >> 2, MaxReadBytes: math.MaxInt >> 2, MaxLineLength: -1}

// NewFileServer returns a file server with no sessions; nil options mean the defaults.
func NewFileServer(opts *FileServerOptions) *FileServer {
	s := &FileServer{
		sessions:   map[string][]fsRoot{},
		workspaces: map[string]*llmfs.Workspace{},
		buffers:    map[string]string{},
	}
	if opts != nil {
		s.opts = *opts
		s.opts.Roots = slices.Clone(opts.Roots)
	}
	return s
}

// Capabilities returns what the server advertises in initialize: readTextFile always,
// writeTextFile unless the mode is read-only.
func (s *FileServer) Capabilities() FileSystemCapability {
	return FileSystemCapability{ReadTextFile: true, WriteTextFile: s.writable()}
}

func (s *FileServer) writable() bool { return s.opts.Mode.Allows(llmfs.OpWrite) }

// AddSession lets session id reach cwd, the server's Roots, and extra. Every directory
// must be absolute and exist. Adding an existing id replaces its roots.
func (s *FileServer) AddSession(id, cwd string, extra ...string) error {
	if id == "" {
		return errors.New("acp: empty session id")
	}
	dirs := append([]string{cwd}, s.opts.Roots...)
	dirs = append(dirs, extra...)
	var roots []fsRoot
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("acp: session root must be absolute: %q", d)
		}
		r, err := s.workspace(d)
		if err != nil {
			return err
		}
		r.ws = r.ws.With(llmfs.Actor(Actor(id)))
		roots = append(roots, r)
	}
	// The innermost root wins, so that a nested root's workspace serves its own files.
	slices.SortStableFunc(roots, func(a, b fsRoot) int { return len(b.dir) - len(a.dir) })
	s.mu.Lock()
	s.sessions[id] = roots
	s.mu.Unlock()
	return nil
}

// Checkpoint names the present point of the journal of each directory session id works
// in (see [llmfs.History.Checkpoint]), so that `llmfs restore NAME` takes back what the
// agent changes after it. Directories without a journal are skipped.
func (s *FileServer) Checkpoint(ctx context.Context, id, name string) error {
	s.mu.Lock()
	roots := s.sessions[id]
	s.mu.Unlock()
	if roots == nil {
		return fmt.Errorf("acp: unknown session %q", id)
	}
	for _, r := range roots {
		if !r.ws.Settings().Journaled {
			continue
		}
		if _, err := r.ws.History().Checkpoint(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

// RemoveSession forgets session id; its later requests fail as for an unknown session.
func (s *FileServer) RemoveSession(id string) {
	s.mu.Lock()
	delete(s.sessions, id)
	s.mu.Unlock()
}

func (s *FileServer) workspace(dir string) (fsRoot, error) {
	canon := canonical(dir)
	s.mu.Lock()
	ws := s.workspaces[canon]
	s.mu.Unlock()
	if ws == nil {
		// The workspace may delete, though the agent cannot ask it to: Undo of a file the
		// agent created removes it. What the agent may do is decided by Capabilities.
		mode := llmfs.Full
		if !s.writable() {
			mode = llmfs.ReadOnly
		}
		var err error
		var o llmfs.Options
		if s.opts.Workspace != nil {
			o = *s.opts.Workspace
		}
		o.Root, o.Mode, o.Limits = canon, mode, rawLimits
		ws, err = host.Open(&o)
		if err != nil {
			return fsRoot{}, fmt.Errorf("acp: session root %s: %w", dir, err)
		}
		s.mu.Lock()
		if w := s.workspaces[canon]; w != nil {
			ws = w
		} else {
			s.workspaces[canon] = ws
		}
		s.mu.Unlock()
	}
	return fsRoot{dir: ws.Root(), ws: ws}, nil
}

// SetBuffer lays content over the file at path (absolute) as an unsaved editor buffer:
// reads see it instead of the disk, and agent writes update it as well as the disk.
func (s *FileServer) SetBuffer(path, content string) {
	s.mu.Lock()
	s.buffers[canonical(path)] = content
	s.mu.Unlock()
}

// ClearBuffer removes the buffer at path, if any; reads see the disk again.
func (s *FileServer) ClearBuffer(path string) {
	s.mu.Lock()
	delete(s.buffers, canonical(path))
	s.mu.Unlock()
}

// Buffer returns the buffer at path and whether there is one.
func (s *FileServer) Buffer(path string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.buffers[canonical(path)]
	return b, ok
}

// Actor is the journal's name for the changes of ACP session id: "acp:<id>".
func Actor(id string) string { return "acp:" + id }

// Handle serves the fs methods on a connection: fs/read_text_file always,
// fs/write_text_file unless the server is read-only. Any other method fails with -32601,
// so an editor handles its own methods first and passes the rest here.
func (s *FileServer) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case MethodReadTextFile:
		var req ReadTextFileRequest
		if err := jsonrpc.Decode(params, &req); err != nil {
			return nil, err
		}
		return s.ReadTextFile(ctx, &req)
	case MethodWriteTextFile:
		if !s.writable() {
			return nil, jsonrpc.MethodNotFound(method)
		}
		var req struct {
			WriteTextFileRequest
			Content *string `json:"content"`
		}
		if err := jsonrpc.Decode(params, &req); err != nil {
			return nil, err
		}
		if req.Content == nil {
			return nil, jsonrpc.InvalidParams("content is required")
		}
		req.WriteTextFileRequest.Content = *req.Content
		// The v1 schema's WriteTextFileResponse is an object: {} rather than null,
		// which strict clients (the TypeScript SDK's zod schema) refuse.
		return s.WriteTextFile(ctx, &req.WriteTextFileRequest)
	}
	return nil, jsonrpc.MethodNotFound(method)
}

// ReadTextFile serves fs/read_text_file. Errors are [*Error] values with the codes
// described on [FileServer].
func (s *FileServer) ReadTextFile(ctx context.Context, req *ReadTextFileRequest) (*ReadTextFileResponse, error) {
	opts := llmfs.ReadOptions{Offset: 1, Limit: llmfs.NoLimit}
	limit := -1 // to the end
	if req.Line != nil {
		if *req.Line < 1 {
			return nil, jsonrpc.InvalidParams("line must be >= 1 (lines count from 1), got %d", *req.Line)
		}
		opts.Offset = *req.Line
	}
	if req.Limit != nil {
		if *req.Limit < 0 {
			return nil, jsonrpc.InvalidParams("limit must be >= 0, got %d", *req.Limit)
		}
		limit = *req.Limit
		// limit 0 asks for no lines; the file is still read (1 line) so a missing or
		// binary file fails as it would otherwise.
		opts.Limit = max(limit, 1)
	}
	r, rel, key, err := s.locate(req.SessionID, req.Path)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	buf, ok := s.buffers[key]
	s.mu.Unlock()
	if ok {
		return &ReadTextFileResponse{Content: sliceLines(buf, opts.Offset, limit)}, nil
	}
	res, err := r.ws.Read(ctx, rel, opts)
	if err != nil {
		return nil, rpcError(req.Path, err)
	}
	if limit == 0 {
		return &ReadTextFileResponse{}, nil
	}
	return &ReadTextFileResponse{Content: res.Content}, nil
}

// locate finds the root of the session that holds path, and the name of path in it.
func (s *FileServer) locate(session, path string) (r fsRoot, rel, key string, err error) {
	if session == "" {
		return fsRoot{}, "", "", jsonrpc.InvalidParams("sessionId is required")
	}
	s.mu.Lock()
	roots, ok := s.sessions[session]
	s.mu.Unlock()
	if !ok {
		return fsRoot{}, "", "", jsonrpc.NewError(CodeInvalidParams, "Invalid params: unknown session: "+session, map[string]string{"sessionId": session})
	}
	switch {
	case path == "":
		return fsRoot{}, "", "", jsonrpc.InvalidParams("path is required")
	case strings.IndexByte(path, 0) >= 0:
		return fsRoot{}, "", "", jsonrpc.InvalidParams("path contains a NUL byte")
	case !filepath.IsAbs(path):
		return fsRoot{}, "", "", jsonrpc.InvalidParams("path must be absolute: %s", path)
	}
	key = canonical(path)
	for _, r := range roots {
		if rel, ok := within(r.dir, key); ok {
			return r, rel, key, nil
		}
	}
	dirs := make([]string, len(roots))
	for i, r := range roots {
		dirs[i] = r.dir
	}
	return fsRoot{}, "", "", outside(path, dirs)
}

// outside refuses a path that lies outside the session's roots, existing or not: the
// agent learns that it may not go there, not whether something is there.
func outside(path string, roots []string) *Error {
	return refusal(path, llmfs.CodeInvalidPath, fmt.Sprintf("%s is outside the session's roots (%s); this client serves only files below them",
		path, strings.Join(roots, ", ")))
}

// refusal is the error for a request the client understood and will not serve.
func refusal(path string, code llmfs.Code, msg string) *Error {
	return jsonrpc.NewError(CodeInvalidParams, "Invalid params: "+msg, map[string]string{"path": path, "code": string(code)})
}

// canonical cleans p and resolves the symbolic links of its longest existing prefix, so
// that one file has one name whichever link led to it.
func canonical(p string) string {
	p = filepath.Clean(p)
	dir, rest := p, ""
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// within reports whether the clean path p is dir or below it, comparing whole elements,
// and its relative name.
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func notFound(path string) *Error {
	return jsonrpc.NewError(CodeResourceNotFound, "Resource not found: "+path, map[string]string{"uri": path})
}

// rpcError turns a workspace error on path into the JSON-RPC error ACP peers expect.
func rpcError(path string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	code := llmfs.CodeOf(err)
	switch code {
	case llmfs.CodeFileNotFound:
		return notFound(path)
	case llmfs.CodeInvalidPath:
		if errors.Is(err, store.ErrEscape) {
			// A symbolic link inside the root that leads out of it.
			return refusal(path, code, path+" resolves outside the session's roots (through a symbolic link); this client serves only files below them")
		}
		// A directory, a device, a file where a directory should be: say which.
		msg := msgOf(err)
		var le *llmfs.Error
		if errors.As(err, &le) && le.Path != "" {
			if m, ok := strings.CutSuffix(msg, ": "+le.Path); ok {
				msg = path + ": " + m
			}
		}
		return refusal(path, code, msg)
	case llmfs.CodePermissionDenied:
		// The deny rules, or the work mode: the message names the rule or the mode.
		return refusal(path, code, msgOf(err))
	case llmfs.CodeInvalidArgument:
		return jsonrpc.InvalidParams("%s", msgOf(err))
	case "":
		code = llmfs.CodeIO
	}
	return jsonrpc.NewError(CodeInternalError, msgOf(err), map[string]string{"code": string(code), "path": path})
}

func msgOf(err error) string {
	var e *llmfs.Error
	if errors.As(err, &e) && e.Msg != "" {
		return e.Msg
	}
	return err.Error()
}

// sliceLines returns limit lines of s from line (1-based), line endings kept;
// limit < 0 means to the end.
func sliceLines(s string, line, limit int) string {
	for i := 1; i < line; i++ {
		j := strings.IndexByte(s, '\n')
		if j < 0 {
			return ""
		}
		s = s[j+1:]
	}
	if limit < 0 {
		return s
	}
	end := 0
	for range limit {
		j := strings.IndexByte(s[end:], '\n')
		if j < 0 {
			return s
		}
		end += j + 1
	}
	return s[:end]
}
