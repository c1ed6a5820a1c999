//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver/fleet"
	"github.com/llmfs/llmfs/store/mem"
)

// Issue 39.2 on a fleet, where each token has its own workspace: every cacheable result
// is "private", so that no shared cache serves one token's files to another, and each
// listed file has its lastModified.
func TestFleetCachePrivate(t *testing.T) {
	h, err := fleet.NewHandler(&fleet.Options{
		Authorize: func(_ context.Context, token, _ string) (fleet.Grant, error) {
			return fleet.Grant{Workspace: "a", Mode: llmfs.Full}, nil
		},
		Open: func(ctx context.Context, id string, mode llmfs.Mode) (*llmfs.Workspace, error) {
			ws := llmfs.New(mem.New(), &llmfs.Options{Mode: mode})
			_, err := ws.Write(ctx, "a.txt", "alpha\n", llmfs.WriteOptions{})
			return ws, err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, v := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(v, func(t *testing.T) {
			cs := connectFleet(t, srv.URL+"/mcp/a", bearer{"t", http.DefaultTransport}, clientAt(v))
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			tl, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			if tl.CacheScope != "private" || tl.TTLMs <= 0 {
				t.Errorf("tools/list: cacheScope %q, ttlMs %d; want private and a TTL", tl.CacheScope, tl.TTLMs)
			}
			rl, err := cs.ListResources(ctx, nil)
			if err != nil || rl.CacheScope != "private" || len(rl.Resources) != 1 {
				t.Fatalf("resources/list: %+v, %v; want one file, private", rl, err)
			}
			if a := rl.Resources[0].Annotations; a == nil || a.LastModified == "" {
				t.Errorf("resources/list: annotations %+v, want a lastModified", a)
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: rl.Resources[0].URI})
			if err != nil || rr.CacheScope != "private" {
				t.Errorf("resources/read: %+v, %v; want private", rr, err)
			}
		})
	}
}
