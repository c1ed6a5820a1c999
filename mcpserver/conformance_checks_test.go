//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Issue 39: the conformance suite's checks that apply to a file server, over stdio as
// well as HTTP (the suite itself only speaks HTTP), at 2025-11-25 and 2026-07-28:
//   - server-stateless: llmfs answered prompts/list but did not declare prompts;
//   - caching: resources/list went out with cacheScope "", which the schema rejects, and
//     every other result with the go-sdk's default "public", which lets a shared gateway
//     serve one token's workspace to another. Every result must be "private";
//   - tools/list carries a ttlMs (the tools do not change within a session), and each
//     listed file its lastModified;
//   - a failed call's code is in _meta["io.github.llmfs/error"] (item 6), whichever path
//     the call takes (stdio runs plain calls outside the go-sdk).
func TestConformanceChecks(t *testing.T) {
	for _, v := range []string{"2025-11-25", "2026-07-28"} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(v+"/"+transport, func(t *testing.T) {
				dir := tempDir(t)
				writeFile(t, filepath.Join(dir, "a.txt"), "alpha\n")
				mtime := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
				if err := chtimes(filepath.Join(dir, "a.txt"), mtime); err != nil {
					t.Fatal(err)
				}
				var cs *mcp.ClientSession
				if transport == "stdio" {
					cs = stdioSession(t, clientAt(v), "--root", dir)
				} else {
					cs = startServe(t, "--root", dir).connect(t, clientAt(v))
				}
				checkConformance(t, cs, dir, mtime)
			})
		}
	}
}

func checkConformance(t *testing.T, cs *mcp.ClientSession, dir string, mtime time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if caps := cs.InitializeResult().Capabilities; caps == nil || caps.Prompts == nil {
		t.Errorf("capabilities %+v: prompts/list is answered, so prompts must be declared", caps)
	}
	fails(t, cs, "file_read", `{"path":"missing.txt"}`, "FILE_NOT_FOUND")
	private := func(name string, c mcp.Cacheable, minTTL int) {
		t.Helper()
		if c.CacheScope != "private" {
			t.Errorf("%s: cacheScope %q, want private", name, c.CacheScope)
		}
		if c.TTLMs < minTTL {
			t.Errorf("%s: ttlMs %d, want at least %d", name, c.TTLMs, minTTL)
		}
	}
	if cs.InitializeResult().ProtocolVersion < "2026-07-28" { // 2026-07-28 has no ping
		if err := cs.Ping(ctx, nil); err != nil {
			t.Errorf("ping: %v", err)
		}
	}
	tl, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	private("tools/list", tl.Cacheable, 60_000)
	pl, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	private("prompts/list", pl.Cacheable, 0)
	tpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatalf("resources/templates/list: %v", err)
	}
	private("resources/templates/list", tpl.Cacheable, 0)
	rl, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	private("resources/list", rl.Cacheable, 0)
	if len(rl.Resources) != 1 {
		t.Fatalf("resources/list: %d resources, want 1", len(rl.Resources))
	}
	r := rl.Resources[0]
	if r.Annotations == nil || r.Annotations.LastModified != mtime.Format(time.RFC3339) {
		t.Errorf("resources/list: %s annotations %+v, want lastModified %s", r.URI, r.Annotations, mtime.Format(time.RFC3339))
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
	if err != nil {
		t.Fatalf("resources/read: %v", err)
	}
	private("resources/read", rr.Cacheable, 0)
	// sep-2164-resource-not-found: a missing file is invalid-params (-32602), at every
	// revision.
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: fileURI(filepath.Join(dir, "missing.txt"))})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("resources/read of a missing file: %v, want code %d", err, jsonrpc.CodeInvalidParams)
	}
}

func chtimes(name string, t time.Time) error { return os.Chtimes(name, t, t) }
