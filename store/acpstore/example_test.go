//go:build !js && !wasip1

package acpstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/store/acpstore"
)

// An agent written in Go reads and writes through the client when the client advertised
// the fs methods, by putting a workspace on a Store.
func Example() {
	// conn is the agent's connection on stdio; the capabilities and cwd come from
	// initialize and session/new. (This example is compiled, not run.)
	conn := acp.NewConn(os.Stdin, os.Stdout, agentHandler)
	caps := acp.FileSystemCapability{ReadTextFile: true, WriteTextFile: true}
	cwd := "/home/user/project"
	st, err := acpstore.New(acpstore.Options{Conn: conn, SessionID: "sess-1", Root: cwd, Capabilities: caps})
	if err != nil {
		log.Fatal(err)
	}
	ws := llmfs.New(st, &llmfs.Options{Root: cwd})
	res, err := ws.Read(context.Background(), "README.md", llmfs.ReadOptions{Limit: llmfs.NoLimit})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content)
}

func agentHandler(ctx context.Context, method string, params json.RawMessage) (any, error) {
	return nil, acp.MethodNotFound(method)
}
