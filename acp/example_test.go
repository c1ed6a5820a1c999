//go:build !js && !wasip1

package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/llmfs/llmfs/acp"
)

// An editor serves a session's files to an agent; the agent, here on the other end of a
// pipe, reads an unsaved buffer and writes a new file.
func ExampleFileServer() {
	dir, _ := os.MkdirTemp("", "acp-example")
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)

	// The editor side.
	files := acp.NewFileServer(nil)
	files.AddSession("sess-1", dir)
	files.SetBuffer(filepath.Join(dir, "main.go"), "package main\n\nfunc main() {}\n") // unsaved
	editorHandler := func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		// The editor's own methods (session/update, session/request_permission) go here.
		return files.Handle(ctx, method, params)
	}

	// A pipe stands for the agent's stdio.
	agentIn, editorOut := io.Pipe()
	editorIn, agentOut := io.Pipe()
	editor := acp.NewConn(editorIn, editorOut, editorHandler)
	defer editor.Close()
	agent := acp.NewConn(agentIn, agentOut, nil)
	defer agent.Close()

	ctx := context.Background()
	var res acp.ReadTextFileResponse
	err := agent.Call(ctx, acp.MethodReadTextFile, &acp.ReadTextFileRequest{
		SessionID: "sess-1", Path: filepath.Join(dir, "main.go"), Line: ptr(3),
	}, &res)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("line 3 of the buffer: %q\n", res.Content)

	err = agent.Call(ctx, acp.MethodWriteTextFile, &acp.WriteTextFileRequest{
		SessionID: "sess-1", Path: filepath.Join(dir, "cmd", "tool", "tool.go"), Content: "package tool\n",
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range files.Changes() {
		rel, _ := filepath.Rel(dir, c.Path)
		fmt.Printf("change %d: %s created=%v\n", c.ID, rel, c.Created)
	}

	err = agent.Call(ctx, acp.MethodReadTextFile, &acp.ReadTextFileRequest{SessionID: "sess-1", Path: "/etc/passwd"}, &res)
	var e *acp.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, string(e.Data))
	}
	// Output:
	// line 3 of the buffer: "func main() {}\n"
	// change 1: cmd/tool/tool.go created=true
	// -32602 {"code":"INVALID_PATH","path":"/etc/passwd"}
}

func ptr[T any](v T) *T { return &v }
