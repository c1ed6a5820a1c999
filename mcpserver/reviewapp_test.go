//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
)

// reviewSetup is a root with a.txt and b.txt, an agent working on it under review (its
// server made by New over the overlay), and a reviewer's session (NewReviewer), in process.
type reviewSetup struct {
	dir      string
	agent    *mcp.ClientSession
	reviewer *mcp.ClientSession
}

func newReviewSetup(t *testing.T) reviewSetup {
	t.Helper()
	ctx := context.Background()
	dir := tempDir(t)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("B\n"), 0o644)
	base, err := host.Open(&llmfs.Options{Root: dir, NoJournal: true})
	if err != nil {
		t.Fatal(err)
	}
	ov, err := overlay.New(ctx, base.Store(), mem.New())
	if err != nil {
		t.Fatal(err)
	}
	agentWS := base.With(llmfs.OnStore(ov))
	connect := func(srv *mcpserver.Server) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := newClient().Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	asrv, err := mcpserver.New(agentWS, nil)
	if err != nil {
		t.Fatal(err)
	}
	rsrv, err := mcpserver.NewReviewer(agentWS, ov, nil)
	if err != nil {
		t.Fatal(err)
	}
	return reviewSetup{dir: dir, agent: connect(asrv), reviewer: connect(rsrv)}
}

// TestReviewAppResource: issue 35.6. The reviewer's server declares the MCP Apps
// extension, lists and serves ui://llmfs/review as text/html;profile=mcp-app, a page that
// loads nothing from elsewhere, and every review tool points at it in _meta.ui.resourceUri.
func TestReviewAppResource(t *testing.T) {
	ctx := context.Background()
	s := newReviewSetup(t)

	caps := s.reviewer.InitializeResult().Capabilities
	if got := mustJSON(caps.Extensions[mcpserver.AppsExtension]); got != `{"mimeTypes":["text/html;profile=mcp-app"]}` {
		t.Errorf("capabilities.extensions[%s] = %s", mcpserver.AppsExtension, got)
	}
	if caps.Resources == nil {
		t.Errorf("the reviewer declares no resources capability")
	}

	list, err := s.reviewer.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range list.Resources {
		if r.URI == mcpserver.ReviewAppURI {
			found = true
			if r.MIMEType != "text/html;profile=mcp-app" {
				t.Errorf("listed mimeType = %q", r.MIMEType)
			}
		}
	}
	if !found {
		t.Fatalf("resources/list = %s, no %s", mustJSON(list.Resources), mcpserver.ReviewAppURI)
	}

	read, err := s.reviewer.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://llmfs/review"})
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Contents) != 1 {
		t.Fatalf("resources/read gave %d contents", len(read.Contents))
	}
	c := read.Contents[0]
	if c.MIMEType != "text/html;profile=mcp-app" || c.URI != "ui://llmfs/review" {
		t.Errorf("read: uri %q, mimeType %q", c.URI, c.MIMEType)
	}
	for _, want := range []string{"<!doctype html>", "ui/initialize", "tools/call", "review_apply", "review_discard"} {
		if !strings.Contains(c.Text, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	// Self-contained: no script, style or image from elsewhere (hosts allow no network by default).
	for _, bad := range []string{"<script src", "<link", "http://", "https://", "import "} {
		if strings.Contains(c.Text, bad) {
			t.Errorf("the page loads from elsewhere: %q", bad)
		}
	}

	tools, err := s.reviewer.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		ui, _ := tool.Meta["ui"].(map[string]any)
		if ui["resourceUri"] != mcpserver.ReviewAppURI {
			t.Errorf("%s: _meta = %s, want ui.resourceUri %s", tool.Name, mustJSON(tool.Meta), mcpserver.ReviewAppURI)
		}
	}
	if len(tools.Tools) != len(mcpserver.ReviewToolNames()) {
		t.Errorf("reviewer tools = %d", len(tools.Tools))
	}

	// The agent's server offers neither the view nor the extension.
	if _, ok := s.agent.InitializeResult().Capabilities.Extensions[mcpserver.AppsExtension]; ok {
		t.Errorf("the agent's server declares the review view")
	}
	if _, err := s.agent.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.ReviewAppURI}); err == nil {
		t.Errorf("the agent's server serves %s", mcpserver.ReviewAppURI)
	}
}
