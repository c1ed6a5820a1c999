//go:build !js && !wasip1

// Package acp serves and uses the file-system methods of the Agent Client Protocol (ACP)
// v1, fs/read_text_file and fs/write_text_file, for editors and agents written in Go.
//
// In ACP the client (an editor) serves the file system and the agent calls it, so that the
// agent sees the editor's unsaved buffers and the editor sees every change the agent makes.
//
//   - [FileServer] is the client side: it serves a session's files from an llmfs Workspace
//     confined to the session's cwd, layers unsaved buffers over disk, and journals every
//     write (actor "acp:<session>", in the workspace journal) so that an editor can show and
//     undo it.
//   - The protocol's types, method names and error codes, and the JSON-RPC connection
//     ([Conn]) both sides speak over.
//
// The agent side, a store.Store that sends reads and writes to the client when the client
// advertised them, is package [github.com/llmfs/llmfs/store/acpstore]. The headless client
// of `llmfs acp`, which runs an agent as a subprocess on a root, serves its files through a
// FileServer and prints its updates, is part of the command (cmd/llmfs/acpclient.go).
//
// Errors follow the conventions of ACP clients: a missing path is -32002 "Resource not
// found: PATH" with data.uri; a path the client refuses (outside the session's roots, also
// through a symbolic link; protected by a deny rule; a directory) is -32602 with a message
// that says why and data {"path", "code"} (the llmfs code, such as PERMISSION_DENIED); a bad
// line or limit, a relative path, and an unknown session are -32602 too; a method the
// client did not advertise is -32601. Nothing the agent can cause is -32603.
//
// # The JSON-RPC layer
//
// The package speaks newline-delimited JSON-RPC 2.0 through a small layer of its own
// ([Conn]) rather than github.com/coder/acp-go-sdk. As of v0.13.0 that SDK reads messages
// with a bufio.Scanner capped at 10 MiB (constants inside the unexported receive loop, and
// a longer line ends the connection) and its generated dispatch calls
// WriteTextFileRequest.Validate, which refuses content == "", before any handler runs. Both
// are fixed in code no caller can reach, so lifting them means a fork. The own layer has no
// cap beyond memory, passes empty content to the handler, and answers malformed input with
// -32700/-32600 instead of dropping it.
package acp
