//go:build !js && !wasip1

package acp

import (
	"encoding/json"
	"io"

	"github.com/llmfs/llmfs/acp/internal/jsonrpc"
)

// ProtocolVersion is the ACP version this package speaks.
const ProtocolVersion = 1

// ACP method names used by this package.
const (
	MethodInitialize        = "initialize"
	MethodSessionNew        = "session/new"
	MethodSessionPrompt     = "session/prompt"
	MethodSessionCancel     = "session/cancel"
	MethodSessionUpdate     = "session/update"
	MethodRequestPermission = "session/request_permission"
	MethodReadTextFile      = "fs/read_text_file"
	MethodWriteTextFile     = "fs/write_text_file"
)

// Error codes. The JSON-RPC ones are standard; CodeResourceNotFound is the one ACP peers
// use for a missing file or session.
const (
	CodeParseError       = jsonrpc.CodeParseError
	CodeInvalidRequest   = jsonrpc.CodeInvalidRequest
	CodeMethodNotFound   = jsonrpc.CodeMethodNotFound
	CodeInvalidParams    = jsonrpc.CodeInvalidParams
	CodeInternalError    = jsonrpc.CodeInternalError
	CodeResourceNotFound = -32002
)

// Error is a JSON-RPC error object: what handlers return to pick a code, and what calls
// return when the peer answered with an error. Use [errors.As] to get at it.
type Error = jsonrpc.Error

// Conn is a JSON-RPC 2.0 connection over newline-delimited JSON: it calls the peer and
// serves the peer's calls with a [Handler]. See [NewConn].
type Conn = jsonrpc.Conn

// Handler serves the messages a [Conn] receives: requests concurrently, notifications
// in order. It returns a result to encode, or an error (an [*Error] keeps its code; any
// other error becomes -32603).
type Handler = jsonrpc.Handler

// ErrClosed is returned by calls on a [Conn] that has closed, as when the peer exited.
var ErrClosed = jsonrpc.ErrClosed

// MethodNotFound returns the -32601 error a [Handler] answers a method it does not serve
// with.
func MethodNotFound(method string) *Error { return jsonrpc.MethodNotFound(method) }

// DecodeParams unmarshals a request's params into v for a [Handler], turning any failure
// into a -32602 error. Missing params decode as an empty object.
func DecodeParams(params json.RawMessage, v any) error { return jsonrpc.Decode(params, v) }

// NewConn starts a connection reading messages from r and writing them to w, serving
// incoming ones with h. Messages have no size limit beyond memory.
func NewConn(r io.Reader, w io.Writer, h Handler) *Conn { return jsonrpc.NewConn(r, w, h) }

// FileSystemCapability is the fs part of the client's capabilities: which of the two
// methods the client serves. An agent must not call a method whose flag is false.
type FileSystemCapability struct {
	ReadTextFile  bool `json:"readTextFile"`
	WriteTextFile bool `json:"writeTextFile"`
}

// ClientCapabilities is what a client advertises in initialize.
type ClientCapabilities struct {
	FS       FileSystemCapability `json:"fs"`
	Terminal bool                 `json:"terminal"`
}

// Implementation names a peer in initialize.
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// InitializeRequest is the params of initialize, sent by the client.
type InitializeRequest struct {
	ProtocolVersion    int                `json:"protocolVersion"`
	ClientCapabilities ClientCapabilities `json:"clientCapabilities"`
	ClientInfo         *Implementation    `json:"clientInfo,omitempty"`
}

// InitializeResponse is the result of initialize. Agent capabilities are kept raw: this
// package needs none of them.
type InitializeResponse struct {
	ProtocolVersion   int             `json:"protocolVersion"`
	AgentCapabilities map[string]any  `json:"agentCapabilities,omitempty"`
	AgentInfo         *Implementation `json:"agentInfo,omitempty"`
	AuthMethods       []any           `json:"authMethods"`
}

// NewSessionRequest is the params of session/new.
type NewSessionRequest struct {
	Cwd string `json:"cwd"`
	// AdditionalDirectories widen the session's file-system scope beyond Cwd.
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
	MCPServers            []any    `json:"mcpServers"`
}

// NewSessionResponse is the result of session/new.
type NewSessionResponse struct {
	SessionID string `json:"sessionId"`
}

// ReadTextFileRequest is the params of fs/read_text_file.
type ReadTextFileRequest struct {
	SessionID string `json:"sessionId"`
	// Path is the absolute path of the file.
	Path string `json:"path"`
	// Line is the first line to read, counting from 1; nil reads from the start.
	Line *int `json:"line,omitempty"`
	// Limit is the most lines to read; nil reads to the end.
	Limit *int `json:"limit,omitempty"`
}

// ReadTextFileResponse is the result of fs/read_text_file.
type ReadTextFileResponse struct {
	Content string `json:"content"`
}

// WriteTextFileRequest is the params of fs/write_text_file. Content may be empty.
type WriteTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}

// WriteTextFileResponse is the (empty) result of fs/write_text_file.
type WriteTextFileResponse struct{}
