//go:build !js && !wasip1

package mcpserver_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rpcFunc sends one JSON-RPC request and returns its result or its error object.
type rpcFunc func(method string, params any) (result, rpcErr map[string]any)

// stdioRPC starts `llmfs mcp args...`, initializes it as a 2025-11-25 client with
// capabilities caps, and returns a raw JSON-RPC caller and the initialize result.
func stdioRPC(t *testing.T, caps string, args ...string) (rpcFunc, map[string]any) {
	t.Helper()
	p := startRawStdio(t, args...)
	id := 0
	call := func(method string, params any) (map[string]any, map[string]any) {
		t.Helper()
		id++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		p.send(string(b))
		for {
			m := p.next()
			if m["id"] == float64(id) && m["method"] == nil {
				res, _ := m["result"].(map[string]any)
				e, _ := m["error"].(map[string]any)
				return res, e
			}
		}
	}
	init, e := call("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": json.RawMessage(caps), "clientInfo": map[string]any{"name": "raw", "version": "0"}})
	if e != nil {
		t.Fatalf("initialize: %v", e)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return call, init
}

// httpRPC starts `llmfs serve args...`, initializes a 2025-11-25 session over
// streamable HTTP (or, for version 2026-07-28, sends stateless requests and asks
// server/discover), and returns a raw JSON-RPC caller and the initialize (discover)
// result.
func httpRPC(t *testing.T, version string, args ...string) (rpcFunc, map[string]any) {
	t.Helper()
	s := startServe(t, args...)
	session, id := "", 0
	call := func(method string, params any) (map[string]any, map[string]any) {
		t.Helper()
		id++
		if version >= "2026-07-28" {
			p, _ := params.(map[string]any)
			if p == nil {
				p = map[string]any{}
			}
			p["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": map[string]any{}}
			params = p
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		req, _ := http.NewRequest("POST", s.url, strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+s.token)
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		if session != "" || version >= "2026-07-28" {
			req.Header.Set("Mcp-Protocol-Version", version)
			req.Header.Set("Mcp-Method", method)
			if p, _ := params.(map[string]any); p != nil {
				if name, ok := p["name"].(string); ok && method == "tools/call" {
					req.Header.Set("Mcp-Name", name)
				} else if uri, ok := p["uri"].(string); ok && method == "resources/read" {
					req.Header.Set("Mcp-Name", uri)
				}
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
			session = sid
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			line := strings.TrimPrefix(sc.Text(), "data: ")
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["id"] == float64(id) {
				res, _ := m["result"].(map[string]any)
				e, _ := m["error"].(map[string]any)
				return res, e
			}
		}
		t.Fatalf("%s: no answer (HTTP %d)", method, resp.StatusCode)
		return nil, nil
	}
	if version >= "2026-07-28" {
		init, e := call("server/discover", nil)
		if e != nil {
			t.Fatalf("server/discover: %v", e)
		}
		return call, init
	}
	init, e := call("initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "0"}})
	if e != nil {
		t.Fatalf("initialize: %v", e)
	}
	return call, init
}

func etagOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// errCode is the llmfs code of a JSON-RPC error object (its data), or "".
func errCode(e map[string]any) string {
	if d, ok := e["data"].(map[string]any); ok {
		code, _ := d["code"].(string)
		return code
	}
	return ""
}

func mustFile(t *testing.T, name, want string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil || string(b) != want {
		t.Errorf("%s holds %q (%v), want %q", name, b, err, want)
	}
}

// Issue 39.3: resource writes, over stdio and HTTP, with good and stale ifMatch values,
// a denied path, and every write journaled as the session's.
func TestResourceWrites(t *testing.T) {
	for _, transport := range []string{"stdio", "http", "http-2026-07-28"} {
		t.Run(transport, func(t *testing.T) {
			dir := tempDir(t)
			writeFile(t, filepath.Join(dir, "sub", "b.txt"), "b\n")
			args := []string{"--root", dir, "--deny", "secret/**", "--history-tools"}
			var call rpcFunc
			var init map[string]any
			if transport == "stdio" {
				call, init = stdioRPC(t, `{}`, args...)
			} else {
				version := strings.TrimPrefix(transport, "http-")
				if version == "http" {
					version = "2025-11-25"
				}
				call, init = httpRPC(t, version, args...)
			}
			exerciseResourceWrites(t, call, init, dir)
		})
	}
}

func exerciseResourceWrites(t *testing.T, call rpcFunc, init map[string]any, dir string) {
	caps, _ := init["capabilities"].(map[string]any)
	exp, _ := caps["experimental"].(map[string]any)
	if _, ok := exp["io.github.llmfs/resource-write"]; !ok {
		t.Errorf("capabilities %v: no experimental io.github.llmfs/resource-write", caps)
	}
	uri := fileURI(filepath.Join(dir, "a.txt"))

	res, e := call("resources/create", map[string]any{"uri": uri, "text": "one\n"})
	if e != nil || res["etag"] != etagOf("one\n") || res["created"] != true || res["size"] != 4.0 {
		t.Fatalf("create: %v, %v", res, e)
	}
	mustFile(t, filepath.Join(dir, "a.txt"), "one\n")
	if _, e = call("resources/create", map[string]any{"uri": uri, "text": "again"}); errCode(e) != "FILE_ALREADY_EXISTS" {
		t.Errorf("create over a file: %v", e)
	}
	res, e = call("resources/read", map[string]any{"uri": uri})
	meta, _ := res["_meta"].(map[string]any)
	if e != nil || meta["etag"] != etagOf("one\n") {
		t.Errorf("read: _meta %v, %v", meta, e)
	}

	// A stale ifMatch: a coded conflict, nothing written.
	_, e = call("resources/update", map[string]any{"uri": uri, "text": "lost", "ifMatch": etagOf("other")})
	if errCode(e) != "FILE_CHANGED" || !strings.HasPrefix(e["message"].(string), "FILE_CHANGED") {
		t.Errorf("stale update: %v", e)
	}
	mustFile(t, filepath.Join(dir, "a.txt"), "one\n")
	// A good one, as a blob.
	res, e = call("resources/update", map[string]any{"uri": uri, "blob": base64.StdEncoding.EncodeToString([]byte("two\x00")), "ifMatch": etagOf("one\n")})
	if e != nil || res["etag"] != etagOf("two\x00") || res["created"] != false {
		t.Fatalf("update: %v, %v", res, e)
	}
	mustFile(t, filepath.Join(dir, "a.txt"), "two\x00")
	if _, e = call("resources/update", map[string]any{"uri": uri, "text": "x", "blob": "eA=="}); errCode(e) != "INVALID_ARGUMENT" {
		t.Errorf("text and blob: %v", e)
	}

	res, e = call("resources/metadata", map[string]any{"uri": uri})
	if e != nil || res["etag"] != etagOf("two\x00") || res["size"] != 4.0 || res["lastModified"] == nil || res["text"] != nil || res["blob"] != nil {
		t.Errorf("metadata: %v, %v", res, e)
	}
	if _, e = call("resources/metadata", map[string]any{"uri": uri + ".missing"}); errCode(e) != "FILE_NOT_FOUND" {
		t.Errorf("metadata of a missing file: %v", e)
	}
	if _, e = call("resources/update", map[string]any{"uri": uri + ".missing", "text": "x", "ifMatch": etagOf("")}); errCode(e) != "FILE_NOT_FOUND" {
		t.Errorf("update of a missing file with ifMatch: %v", e)
	}
	res, e = call("resources/metadata", map[string]any{"uri": fileURI(filepath.Join(dir, "sub"))})
	if e != nil || res["mimeType"] != "inode/directory" || res["etag"] != nil {
		t.Errorf("metadata of a directory: %v, %v", res, e)
	}
	res, e = call("resources/list", map[string]any{"uri": fileURI(dir)})
	if got := fmt.Sprint(res["resources"]); e != nil || !strings.Contains(got, "a.txt") || !strings.Contains(got, "inode/directory") || strings.Contains(got, "b.txt") {
		t.Errorf("list of one directory: %v, %v", res, e)
	}
	res, e = call("resources/directory/read", map[string]any{"uri": fileURI(dir)})
	if got := fmt.Sprint(res["resources"]); e != nil || !strings.Contains(got, "a.txt") || !strings.Contains(got, "inode/directory") {
		t.Errorf("resources/directory/read: %v, %v", res, e)
	}
	res, e = call("resources/list", map[string]any{})
	if got := fmt.Sprint(res["resources"]); e != nil || !strings.Contains(got, "b.txt") {
		t.Errorf("list of everything: %v, %v", res, e)
	}

	// Denied paths: refused, nothing written.
	secret := fileURI(filepath.Join(dir, "secret", "k.txt"))
	if _, e = call("resources/create", map[string]any{"uri": secret, "text": "k"}); errCode(e) != "PERMISSION_DENIED" {
		t.Errorf("create of a denied path: %v", e)
	}
	if _, err := os.Stat(filepath.Join(dir, "secret")); err == nil {
		t.Error("a denied create left something behind")
	}
	if _, e = call("resources/create", map[string]any{"uri": fileURI(filepath.Join(filepath.Dir(dir), "out.txt")), "text": "o"}); e == nil {
		t.Error("create outside the root succeeded")
	}

	if _, e = call("resources/delete", map[string]any{"uri": uri, "ifMatch": etagOf("one\n")}); errCode(e) != "FILE_CHANGED" {
		t.Errorf("stale delete: %v", e)
	}
	mustFile(t, filepath.Join(dir, "a.txt"), "two\x00")
	if _, e = call("resources/delete", map[string]any{"uri": uri, "ifMatch": etagOf("two\x00")}); e != nil {
		t.Errorf("delete: %v", e)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err == nil {
		t.Error("a.txt is still there")
	}

	// Journaled, as the session's actor: the history tool shows the three changes.
	res, e = call("tools/call", map[string]any{"name": "history", "arguments": map[string]any{}})
	if got := fmt.Sprint(res["structuredContent"]); e != nil || strings.Count(got, "a.txt") < 3 || !strings.Contains(got, "mcp:") {
		t.Errorf("history: %v, %v", got, e)
	}
}

// Issue 39.3: the mode and --review hold for resource writes as for tool calls.
func TestResourceWritesModeAndReview(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "one\n")
	uri := fileURI(filepath.Join(dir, "a.txt"))

	call, _ := stdioRPC(t, `{}`, "--root", dir, "--mode", "read-only")
	if _, e := call("resources/update", map[string]any{"uri": uri, "text": "x", "ifMatch": etagOf("one\n")}); errCode(e) != "PERMISSION_DENIED" {
		t.Errorf("read-only update: %v", e)
	}
	if _, e := call("resources/delete", map[string]any{"uri": uri}); errCode(e) != "PERMISSION_DENIED" {
		t.Errorf("read-only delete: %v", e)
	}
	if res, e := call("resources/metadata", map[string]any{"uri": uri}); e != nil || res["etag"] != etagOf("one\n") {
		t.Errorf("read-only metadata: %v, %v", res, e)
	}
	mustFile(t, filepath.Join(dir, "a.txt"), "one\n")
	// A file too large to hash: its stat without an etag.
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, 16<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, e := call("resources/metadata", map[string]any{"uri": fileURI(filepath.Join(dir, "big.bin"))}); e != nil || res["etag"] != nil || res["size"] != float64(16<<20+1) {
		t.Errorf("metadata of a large file: %v, %v", res, e)
	}

	// Under read-before-edit, an etag vouches as a read does.
	call, _ = stdioRPC(t, `{}`, "--root", dir, "--require-read")
	if _, e := call("resources/update", map[string]any{"uri": uri, "text": "x"}); errCode(e) != "FILE_NOT_READ" {
		t.Errorf("require-read update without ifMatch: %v", e)
	}
	if _, e := call("resources/update", map[string]any{"uri": uri, "text": "one\n", "ifMatch": etagOf("one\n")}); e != nil {
		t.Errorf("require-read update with ifMatch: %v", e)
	}

	call, _ = stdioRPC(t, `{}`, "--root", dir, "--review")
	if _, e := call("resources/update", map[string]any{"uri": uri, "text": "two\n", "ifMatch": etagOf("one\n")}); e != nil {
		t.Fatalf("update under review: %v", e)
	}
	mustFile(t, filepath.Join(dir, "a.txt"), "one\n") // pending review, the file untouched
	res, e := call("resources/read", map[string]any{"uri": uri})
	if contents, _ := res["contents"].([]any); e != nil || len(contents) != 1 || contents[0].(map[string]any)["text"] != "two\n" {
		t.Errorf("read under review: %v, %v", res, e)
	}
}
