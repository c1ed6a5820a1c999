//go:build !js && !wasip1

package acp

// Interop tests against the official ACP TypeScript SDK (@agentclientprotocol/sdk): a
// TypeScript agent uses llmfs's client side, and a TypeScript client serves llmfs's
// agent side. They need node and the packages installed by testdata/interop/install.sh;
// without them they skip, unless LLMFS_REQUIRE_INTEROP=1.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
)

// interopPeer returns the node binary and the directory of the TypeScript peers.
func interopPeer(t *testing.T) (node, dir string) {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("LLMFS_REQUIRE_INTEROP") == "1" {
		skip = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("ACP interop: node is not installed (Debian: apt-get install nodejs npm)")
	}
	dir, err = filepath.Abs(filepath.Join("testdata", "interop"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil {
		skip("ACP interop: the TypeScript SDK is not installed; run acp/testdata/interop/install.sh")
	}
	return node, dir
}

type jsResult struct {
	Name    string `json:"name"`
	Content string `json:"content"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func TestInteropTSAgent(t *testing.T) {
	node, dir := interopPeer(t)
	p := newPeerProject(t)
	files := map[string]string{
		"crlf.txt":    "x\r\ny\r\n",
		"unicode.txt": "héllo wörld ✓ 日本語 🎉\n\"quotes\" \\ and \ttabs\n",
	}
	for i := range 32 {
		files[fmt.Sprintf("c/%d.txt", i)] = strings.Repeat(fmt.Sprintf("file %d\n", i), 100+i)
	}
	var big strings.Builder
	for i := 0; big.Len() < 20<<20; i++ {
		fmt.Fprintf(&big, "line %08d of a large file\n", i)
	}
	files["big.txt"] = big.String()
	writeFiles(t, p.root, files)
	secret := filepath.Join(p.outside, "secret.txt")
	root, _ := filepath.EvalSymlinks(p.root)

	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := RunClient(ctx, ClientOptions{
		Root:    p.root,
		Prompt:  "go",
		Command: []string{node, filepath.Join(dir, "fake-agent.mjs")},
		Env:     append(os.Environ(), "RESULT_FILE="+p.result, "OUTSIDE="+secret),
		Approve: ApproveAll,
		Stdout:  &stdout,
		Stderr:  &stderr,
	})
	if err != nil {
		t.Fatalf("RunClient: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	got := readJSResults(t, p.result)
	type want struct {
		content string
		code    int
	}
	for name, w := range map[string]want{
		"capabilities":      {content: `{"readTextFile":true,"writeTextFile":true}`},
		"read whole":        {content: "one\ntwo\nthree\nfour\n"},
		"read line+limit":   {content: "two\nthree\n"},
		"read line":         {content: "four\n"},
		"read past end":     {content: ""},
		"read missing":      {code: CodeResourceNotFound},
		"read outside":      {code: CodeInvalidParams},
		"read symlink out":  {code: CodeInvalidParams},
		"read line zero":    {code: CodeInvalidParams},
		"read crlf":         {content: "x\r\ny\r\n"},
		"read unicode":      {content: files["unicode.txt"]},
		"read big":          {content: fmt.Sprint(len(files["big.txt"]))},
		"read concurrent":   {content: "0 bad of 32"},
		"write new":         {},
		"write nested":      {},
		"write empty":       {},
		"write overwrite":   {},
		"write outside":     {code: CodeInvalidParams},
		"write symlink out": {code: CodeInvalidParams},
		"read back":         {content: "overwritten by js\n"},
		"permission":        {content: "selected allow"},
	} {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: no result", name)
		case w.code != 0 && (g.Error == nil || g.Error.Code != w.code):
			t.Errorf("%s: got %+v, want error %d", name, g, w.code)
		case w.code == 0 && (g.Error != nil || g.Content != w.content):
			t.Errorf("%s: got %.100q (error %+v), want %.100q", name, g.Content, g.Error, w.content)
		}
	}
	// The error shape real clients use, as the TypeScript SDK sees it.
	if e := got["read missing"].Error; e != nil {
		path := root + "/nope.txt"
		if e.Message != "Resource not found: "+path || string(e.Data) != `{"uri":"`+path+`"}` {
			t.Errorf("missing file error = %q %s", e.Message, e.Data)
		}
	}
	for rel, want := range map[string]string{"new.txt": "fresh from js\n", "js/deep/er/file.txt": "nested\n", "empty.txt": "", "b.txt": "overwritten by js\n"} {
		if got := p.file(t, rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if got, _ := os.ReadFile(secret); string(got) != "top secret\n" {
		t.Errorf("secret became %q", got)
	}
	if len(sum.Changes) != 4 {
		t.Errorf("%d changes recorded, want 4", len(sum.Changes))
	}
	for _, want := range []string{"ran 21 cases\n", "[permission] Run the tests -> Allow once", "[tool t1] Write files (edit) completed", "--- 4 file(s) changed"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestInteropTSAgentReadOnly runs the TypeScript agent under a read-only client: it must
// be offered reads alone, and a write it sends anyway is refused.
func TestInteropTSAgentReadOnly(t *testing.T) {
	node, dir := interopPeer(t)
	p := newPeerProject(t)
	writeFiles(t, p.root, map[string]string{"big.txt": "small\n"})
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := RunClient(ctx, ClientOptions{
		Root:    p.root,
		Mode:    llmfs.ReadOnly,
		Command: []string{node, filepath.Join(dir, "fake-agent.mjs")},
		Env:     append(os.Environ(), "RESULT_FILE="+p.result, "OUTSIDE="+filepath.Join(p.outside, "secret.txt")),
		Stdout:  &stdout,
		Stderr:  &stderr,
	})
	if err != nil {
		t.Fatalf("RunClient: %v\n%s", err, stderr.String())
	}
	got := readJSResults(t, p.result)
	if c := got["capabilities"].Content; c != `{"readTextFile":true,"writeTextFile":false}` {
		t.Errorf("capabilities seen by the agent = %s", c)
	}
	if g := got["read whole"]; g.Content != "one\ntwo\nthree\nfour\n" {
		t.Errorf("read whole = %+v", g)
	}
	if e := got["write unadvertised"].Error; e == nil || e.Code != CodeMethodNotFound {
		t.Errorf("unadvertised write = %+v, want -32601", got["write unadvertised"])
	}
	if _, err := os.Stat(filepath.Join(p.root, "new.txt")); err == nil {
		t.Error("a read-only client wrote new.txt")
	}
	if len(sum.Changes) != 0 {
		t.Errorf("changes = %+v", sum.Changes)
	}
}

func readJSResults(t *testing.T, path string) map[string]jsResult {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the TypeScript agent left no results: %v", err)
	}
	var list []jsResult
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	m := map[string]jsResult{}
	for _, r := range list {
		m[r.Name] = r
	}
	return m
}

// TestInteropTSClient runs llmfs's agent side (a workspace over AgentStore) against the
// TypeScript client, with each combination of fs capabilities.
func TestInteropTSClient(t *testing.T) {
	node, dir := interopPeer(t)
	for _, caps := range []string{"", "read", "write", "read,write"} {
		t.Run("caps="+caps, func(t *testing.T) {
			p := newPeerProject(t)
			callsFile := filepath.Join(p.base, "calls.json")
			cmd := exec.Command(node, filepath.Join(dir, "fake-client.mjs"))
			cmd.Env = append(os.Environ(), "CAPS="+caps, "ROOT="+p.root, "PROMPT=store", "CALLS_FILE="+callsFile,
				"BUFFER_PATH="+filepath.Join(p.root, "b.txt"), "BUFFER_TEXT=buffered\n")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			agent := &agentPeer{resultPath: p.result, outside: filepath.Join(p.outside, "secret.txt")}
			agent.connect(stdout, stdin)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("fake client: %v\n%s", err, stderr.String())
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("fake client hung\n%s", stderr.String())
			}
			agent.conn.Close()

			var log struct {
				Calls  []string `json:"calls"`
				Prompt struct {
					StopReason string `json:"stopReason"`
				} `json:"prompt"`
			}
			b, err := os.ReadFile(callsFile)
			if err != nil {
				t.Fatalf("no calls log: %v\n%s", err, stderr.String())
			}
			json.Unmarshal(b, &log)
			if log.Prompt.StopReason != "end_turn" {
				t.Errorf("stop reason %q", log.Prompt.StopReason)
			}
			canRead, canWrite := strings.Contains(caps, "read"), strings.Contains(caps, "write")
			reads, writes := count(log.Calls, MethodReadTextFile), count(log.Calls, MethodWriteTextFile)
			if !canRead && reads > 0 || !canWrite && writes > 0 {
				t.Errorf("agent called unadvertised methods: %v", log.Calls)
			}
			if canRead && reads == 0 || canWrite && writes == 0 {
				t.Errorf("agent did not use advertised methods: %v", log.Calls)
			}
			if other := slices.DeleteFunc(slices.Clone(log.Calls), func(m string) bool {
				return m == MethodReadTextFile || m == MethodWriteTextFile
			}); len(other) > 0 {
				t.Errorf("agent called %v", other)
			}

			res := p.results(t)
			wantB := "bee\n"
			if canRead {
				wantB = "buffered\n"
			}
			checkResults(t, res, []peerResult{
				{Name: "read", Content: "one\ntwo\nthree\nfour\n"},
				{Name: "read b", Content: wantB},
				{Name: "read line+limit", Content: "two\nthree\n"},
				{Name: "read missing", FSCode: string(llmfs.CodeFileNotFound)},
				{Name: "read symlink out", FSCode: string(llmfs.CodeInvalidPath)},
				{Name: "read outside", FSCode: string(llmfs.CodeInvalidPath)},
				{Name: "write nested"}, {Name: "write empty"}, {Name: "write overwrite"}, {Name: "write append"},
				{Name: "write create existing", FSCode: string(llmfs.CodeFileAlreadyExists)},
				{Name: "edit"},
			})
			for rel, want := range map[string]string{"store-new/n.txt": "via store\n", "store-empty.txt": "", "b.txt": "store overwrite\nappended\n", "a.txt": "one\ntwo\nTHREE\nfour\n"} {
				if got := p.file(t, rel); got != want {
					t.Errorf("%s = %q, want %q", rel, got, want)
				}
			}
		})
	}
}

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}
