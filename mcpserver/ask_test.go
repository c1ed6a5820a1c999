//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
)

// asker is a person behind a client: it answers every confirmation with action and
// keeps the questions.
type asker struct {
	action string
	mu     sync.Mutex
	asked  []string
}

func (a *asker) client(version string) *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: "asker", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			a.mu.Lock()
			a.asked = append(a.asked, req.Params.Message)
			a.mu.Unlock()
			return &mcp.ElicitResult{Action: a.action, Content: map[string]any{"confirm": true}}, nil
		},
	})
	clientVersions.Store(c, version)
	return c
}

func (a *asker) questions() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.asked, "|")
}

// Issue 39.4: with Ask, a delete or a move runs only once the person accepts; declined,
// cancelled or a client without elicitation: PERMISSION_DENIED, nothing changed. Both
// the elicitation/create request (2025-11-25) and the input request inside the result
// (2026-07-28) are tried.
func TestAskBeforeDestroying(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			dir := tempDir(t)
			srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{Ask: []string{mcpserver.AskDelete, mcpserver.AskMove}})
			if err != nil {
				t.Fatal(err)
			}
			for _, action := range []string{"decline", "cancel"} {
				writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
				person := &asker{action: action}
				cs := connectInMemory(t, srv, person.client(version))
				msg := fails(t, cs, "file_delete", `{"path":"a.txt"}`, "PERMISSION_DENIED")
				if !strings.Contains(msg, "delete a.txt?") || !strings.Contains(msg, "nothing was changed") {
					t.Errorf("%s: message %q", action, msg)
				}
				fails(t, cs, "file_move", `{"source":"a.txt","destination":"b.txt"}`, "PERMISSION_DENIED")
				if q := person.questions(); q != "delete a.txt?|move a.txt to b.txt?" {
					t.Errorf("%s: asked %q", action, q)
				}
				mustFile(t, filepath.Join(dir, "a.txt"), "a\n")
			}

			cs := connectInMemory(t, srv, clientAt(version)) // no elicitation capability
			if msg := fails(t, cs, "file_delete", `{"path":"a.txt"}`, "PERMISSION_DENIED"); !strings.Contains(msg, "elicitation") {
				t.Errorf("no elicitation: %q", msg)
			}
			mustFile(t, filepath.Join(dir, "a.txt"), "a\n")
			ok(t, cs, "file_write", `{"path":"c.txt","content":"c"}`) // not asked

			person := &asker{action: "accept"}
			cs = connectInMemory(t, srv, person.client(version))
			ok(t, cs, "file_move", `{"source":"a.txt","destination":"b.txt"}`)
			ok(t, cs, "file_delete", `{"path":"b.txt"}`)
			if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
				t.Error("b.txt is still there")
			}
			if q := person.questions(); q != "move a.txt to b.txt?|delete b.txt?" {
				t.Errorf("accept: asked %q", q)
			}
		})
	}
}

// Issue 39.4: `llmfs mcp --ask delete` asks before resources/delete too, and refuses a
// client that cannot be asked; an unknown operation is a usage error.
func TestAskFlag(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	call, _ := stdioRPC(t, `{}`, "--root", dir, "--ask", "delete")
	_, e := call("resources/delete", map[string]any{"uri": fileURI(filepath.Join(dir, "a.txt"))})
	if errCode(e) != "PERMISSION_DENIED" || !strings.Contains(e["message"].(string), "delete") {
		t.Errorf("resources/delete without elicitation: %v", e)
	}
	mustFile(t, filepath.Join(dir, "a.txt"), "a\n")

	person := &asker{action: "accept"}
	cs := stdioSession(t, person.client("2025-11-25"), "--root", dir, "--ask", "delete,move")
	ok(t, cs, "file_delete", `{"path":"a.txt"}`)
	if q := person.questions(); q != "delete a.txt?" {
		t.Errorf("asked %q", q)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err == nil {
		t.Error("a.txt is still there")
	}

	// Over HTTP: a session's elicitation/create (2025-11-25), a stateless request's input
	// request (2026-07-28).
	s := startServe(t, "--root", dir, "--ask", "delete")
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		writeFile(t, filepath.Join(dir, "h.txt"), "h\n")
		decline := &asker{action: "decline"}
		fails(t, s.connect(t, decline.client(version)), "file_delete", `{"path":"h.txt"}`, "PERMISSION_DENIED")
		mustFile(t, filepath.Join(dir, "h.txt"), "h\n")
		accept := &asker{action: "accept"}
		ok(t, s.connect(t, accept.client(version)), "file_delete", `{"path":"h.txt"}`)
		if decline.questions() != "delete h.txt?" || accept.questions() != "delete h.txt?" {
			t.Errorf("%s: asked %q and %q", version, decline.questions(), accept.questions())
		}
		if _, err := os.Stat(filepath.Join(dir, "h.txt")); err == nil {
			t.Errorf("%s: h.txt is still there", version)
		}
	}

	if _, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{Ask: []string{"format"}}); err == nil {
		t.Error("Ask format: no error")
	}
}
