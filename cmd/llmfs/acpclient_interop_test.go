//go:build !js && !wasip1

package main

// Interop tests against the official ACP TypeScript SDK (@agentclientprotocol/sdk): a
// TypeScript agent uses llmfs's ACP client. They need node and the packages installed by
// acp/testdata/interop/install.sh; without them they skip, unless LLMFS_REQUIRE_INTEROP=1.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/internal/acppeer"
)

type jsResult struct {
	Name    string `json:"name"`
	Content string `json:"content"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func TestACPInteropTSAgent(t *testing.T) {
	node, dir := acppeer.Interop(t)
	p := acppeer.NewProject(t)
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
	acppeer.WriteFiles(t, p.Root, files)
	secret := filepath.Join(p.Outside, "secret.txt")
	root, _ := filepath.EvalSymlinks(p.Root)

	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := runACPClient(ctx, acpClientOptions{
		Root:    p.Root,
		Prompt:  "go",
		Command: []string{node, filepath.Join(dir, "fake-agent.mjs")},
		Env:     append(os.Environ(), "RESULT_FILE="+p.Result, "OUTSIDE="+secret),
		Approve: acpApproveAll,
		Stdout:  &stdout,
		Stderr:  &stderr,
	})
	if err != nil {
		t.Fatalf("RunClient: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	got := readJSResults(t, p.Result)
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
		"read missing":      {code: acp.CodeResourceNotFound},
		"read outside":      {code: acp.CodeInvalidParams},
		"read symlink out":  {code: acp.CodeInvalidParams},
		"read line zero":    {code: acp.CodeInvalidParams},
		"read crlf":         {content: "x\r\ny\r\n"},
		"read unicode":      {content: files["unicode.txt"]},
		"read big":          {content: fmt.Sprint(len(files["big.txt"]))},
		"read concurrent":   {content: "0 bad of 32"},
		"write new":         {},
		"write nested":      {},
		"write empty":       {},
		"write overwrite":   {},
		"write outside":     {code: acp.CodeInvalidParams},
		"write symlink out": {code: acp.CodeInvalidParams},
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
		if got := p.File(t, rel); got != want {
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

// TestACPInteropTSAgentReadOnly runs the TypeScript agent under a read-only client: it must
// be offered reads alone, and a write it sends anyway is refused.
func TestACPInteropTSAgentReadOnly(t *testing.T) {
	node, dir := acppeer.Interop(t)
	p := acppeer.NewProject(t)
	acppeer.WriteFiles(t, p.Root, map[string]string{"big.txt": "small\n"})
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := runACPClient(ctx, acpClientOptions{
		Root:    p.Root,
		Mode:    llmfs.ReadOnly,
		Command: []string{node, filepath.Join(dir, "fake-agent.mjs")},
		Env:     append(os.Environ(), "RESULT_FILE="+p.Result, "OUTSIDE="+filepath.Join(p.Outside, "secret.txt")),
		Stdout:  &stdout,
		Stderr:  &stderr,
	})
	if err != nil {
		t.Fatalf("RunClient: %v\n%s", err, stderr.String())
	}
	got := readJSResults(t, p.Result)
	if c := got["capabilities"].Content; c != `{"readTextFile":true,"writeTextFile":false}` {
		t.Errorf("capabilities seen by the agent = %s", c)
	}
	if g := got["read whole"]; g.Content != "one\ntwo\nthree\nfour\n" {
		t.Errorf("read whole = %+v", g)
	}
	if e := got["write unadvertised"].Error; e == nil || e.Code != acp.CodeMethodNotFound {
		t.Errorf("unadvertised write = %+v, want -32601", got["write unadvertised"])
	}
	if _, err := os.Stat(filepath.Join(p.Root, "new.txt")); err == nil {
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
