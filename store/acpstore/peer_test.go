//go:build !js && !wasip1

package acpstore_test

// These tests run the test binary itself as an ACP agent (package internal/acppeer) in a
// second process, whose workspace is on a Store, so that the client and the agent meet
// over real pipes.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/internal/acppeer"
	"github.com/llmfs/llmfs/internal/testcache"
)

func TestMain(m *testing.M) {
	acppeer.Main()
	restore := testcache.Isolate()
	code := m.Run()
	restore()
	os.Exit(code)
}

// TestPeerStoreCapabilities runs the agent's store against a client that advertises
// less: the agent must then use its local disk and never call what is not advertised.
func TestPeerStoreCapabilities(t *testing.T) {
	type test struct {
		caps acp.FileSystemCapability
	}
	for _, tc := range []test{{acp.FileSystemCapability{}}, {acp.FileSystemCapability{ReadTextFile: true}}, {acp.FileSystemCapability{WriteTextFile: true}}, {acp.FileSystemCapability{ReadTextFile: true, WriteTextFile: true}}} {
		t.Run(fmt.Sprintf("read=%v,write=%v", tc.caps.ReadTextFile, tc.caps.WriteTextFile), func(t *testing.T) {
			p := acppeer.NewProject(t)
			srv := acp.NewFileServer(nil)
			// An unsaved buffer tells whether a read went to the client.
			srv.SetBuffer(filepath.Join(p.Root, "b.txt"), "buffered\n")
			calls := runRawClient(t, p, tc.caps, srv, "store")
			res := p.Results(t)
			if !tc.caps.ReadTextFile && calls[acp.MethodReadTextFile] > 0 {
				t.Errorf("agent called %s %d times without the capability", acp.MethodReadTextFile, calls[acp.MethodReadTextFile])
			}
			if !tc.caps.WriteTextFile && calls[acp.MethodWriteTextFile] > 0 {
				t.Errorf("agent called %s %d times without the capability", acp.MethodWriteTextFile, calls[acp.MethodWriteTextFile])
			}
			if tc.caps.ReadTextFile && calls[acp.MethodReadTextFile] == 0 || tc.caps.WriteTextFile && calls[acp.MethodWriteTextFile] == 0 {
				t.Errorf("agent did not use an advertised method: %v", calls)
			}
			if got := res["read"].Content; got != "one\ntwo\nthree\nfour\n" {
				t.Errorf("read = %q", got)
			}
			// b.txt: read, overwritten, appended to.
			wantRead, wantDisk, wantBuf := "bee\n", "store overwrite\nappended\n", "buffered\n"
			if tc.caps.WriteTextFile {
				wantBuf = wantDisk // writes through the client update its buffer
			}
			if tc.caps.ReadTextFile {
				wantRead = "buffered\n"
			}
			if got := res["read b"].Content; got != wantRead {
				t.Errorf("read b.txt = %q, want %q", got, wantRead)
			}
			if got := p.File(t, "b.txt"); got != wantDisk {
				t.Errorf("b.txt on disk = %q, want %q", got, wantDisk)
			}
			if b, _ := srv.Buffer(filepath.Join(p.Root, "b.txt")); b != wantBuf {
				t.Errorf("buffer b.txt = %q, want %q", b, wantBuf)
			}
			wantChanges := 0
			if tc.caps.WriteTextFile {
				wantChanges = 5
			}
			if n := len(srv.Changes()); n != wantChanges {
				t.Errorf("client recorded %d changes, want %d", n, wantChanges)
			}
			if got := p.File(t, "store-new/n.txt"); got != "via store\n" {
				t.Errorf("store-new/n.txt = %q", got)
			}
			if got := p.File(t, "a.txt"); got != "one\ntwo\nTHREE\nfour\n" {
				t.Errorf("a.txt after edit = %q", got)
			}
		})
	}
}

// runRawClient runs the agent peer under a minimal client that advertises caps, serves
// what it advertised from srv, and counts the methods the agent called.
func runRawClient(t *testing.T, p *acppeer.Project, caps acp.FileSystemCapability, srv *acp.FileServer, scenario string) map[string]int {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = p.Env()
	cmd.Dir = p.Root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls := map[string]int{}
	conn := acp.NewConn(stdout, stdin, func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		mu.Lock()
		calls[method]++
		mu.Unlock()
		if method == acp.MethodReadTextFile && !caps.ReadTextFile || method == acp.MethodWriteTextFile && !caps.WriteTextFile {
			return nil, &acp.Error{Code: acp.CodeMethodNotFound, Message: "not advertised: " + method}
		}
		return srv.Handle(ctx, method, params)
	})
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			conn.Close()
			cmd.Wait()
			conn.Wait()
		}
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var init acp.InitializeResponse
	if err := conn.Call(ctx, acp.MethodInitialize, &acp.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: acp.ClientCapabilities{FS: caps}}, &init); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	var sess acp.NewSessionResponse
	if err := conn.Call(ctx, acp.MethodSessionNew, &acp.NewSessionRequest{Cwd: p.Root, MCPServers: []any{}}, &sess); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddSession(sess.SessionID, p.Root); err != nil {
		t.Fatal(err)
	}
	err := conn.Call(ctx, acp.MethodSessionPrompt, map[string]any{"sessionId": sess.SessionID, "prompt": []map[string]string{{"type": "text", "text": scenario}}}, nil)
	if err != nil {
		t.Fatalf("prompt: %v\n%s", err, stderr.String())
	}
	stop()
	return calls
}
