//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
)

// TestReviewerOverMCP: issue 15.5, the review over MCP for a client that reviews. An agent
// works through `llmfs mcp --review` (real processes, the go-sdk client), whose tools
// include no review tool; a reviewer connects with `llmfs mcp --reviewer`, lists and
// diffs the pending changes, applies one path, meets a conflict (FILE_CHANGED, with a
// diff), and discards the rest; every result matches its outputSchema.
func TestReviewerOverMCP(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := tempDir(t)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("B\n"), 0o644)

	agent := stdioSession(t, nil, "--root", dir, "--review")
	for _, n := range toolNames(t, agent) {
		if strings.HasPrefix(n, "review_") {
			t.Errorf("the agent under review is offered %s", n)
		}
	}
	ok(t, agent, "file_write", `{"path":"a.txt","content":"one\nTWO\n"}`)
	ok(t, agent, "file_write", `{"path":"b.txt","content":"agent\n"}`)
	ok(t, agent, "file_write", `{"path":"new.txt","content":"N\n"}`)
	agent.Close()
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\ntwo\n" {
		t.Fatalf("the host's a.txt changed under review: %q", b)
	}

	rv := stdioSession(t, nil, "--root", dir, "--reviewer")
	if got, want := toolNames(t, rv), mcpserver.ReviewToolNames(); !slices.Equal(sorted(got), sorted(want)) {
		t.Errorf("reviewer tools = %v, want %v", got, want)
	}
	// The review view, an MCP App, over the real process too (issue 35.6).
	if app, err := rv.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.ReviewAppURI}); err != nil || app.Contents[0].MIMEType != mcpserver.AppMIMEType {
		t.Errorf("llmfs mcp --reviewer: resources/read %s: %v", mcpserver.ReviewAppURI, err)
	}
	list := ok(t, rv, "review_list", `{}`)
	if got := mustJSON(list["changes"]); !strings.Contains(got, `{"added":1,"hunks":1,"kind":"modified","path":"a.txt","removed":1,"version":"`) || !strings.Contains(got, `"kind":"created","path":"new.txt"`) {
		t.Errorf("review_list = %s", got)
	}
	// A version that moved is refused, nothing touched (issue 35).
	fails(t, rv, "review_apply", `{"paths":["a.txt"],"version":"0123456789abcdef"}`, "FILE_CHANGED")
	fails(t, rv, "review_apply", `{"version":"0123456789abcdef"}`, "INVALID_ARGUMENT")
	d := ok(t, rv, "review_diff", `{"paths":["a.txt"]}`)
	if diff, _ := d["diff"].(string); !strings.Contains(diff, "-two\n+TWO\n") || strings.Contains(diff, "new.txt") {
		t.Errorf("review_diff = %q", diff)
	}
	fails(t, rv, "review_apply", `{"paths":["nothing.txt"]}`, "FILE_NOT_FOUND")
	fails(t, rv, "review_apply", `{"hunks":[1.0]}`, "INVALID_ARGUMENT")

	res := ok(t, rv, "review_apply", `{"paths":["a.txt"]}`)
	if got := mustJSON(res); !strings.Contains(got, `"path":"a.txt"`) || !strings.Contains(got, `"action":"applied"`) || !strings.Contains(got, `"failed":[]`) {
		t.Errorf("review_apply a.txt = %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "one\nTWO\n" {
		t.Errorf("host a.txt after apply = %q", b)
	}

	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("human\n"), 0o644) // behind the agent
	res = ok(t, rv, "review_apply", `{}`)
	failed, _ := res["failed"].([]any)
	if len(failed) != 1 || mustJSON(failed[0]) == "" || !strings.Contains(mustJSON(failed[0]), `"code":"FILE_CHANGED"`) || !strings.Contains(mustJSON(failed[0]), `"path":"b.txt"`) || !strings.Contains(mustJSON(failed[0]), `human\n=======\nagent`) { // both sides, marked
		t.Errorf("review_apply with a conflict: failed = %s", mustJSON(failed))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "human\n" {
		t.Errorf("host b.txt after a refused apply = %q", b)
	}
	if got := mustJSON(res["resolved"]); !strings.Contains(got, `"path":"new.txt"`) {
		t.Errorf("review_apply resolved = %s, want new.txt", got)
	}

	res = ok(t, rv, "review_discard", `{}`)
	if got := mustJSON(res["resolved"]); !strings.Contains(got, `"kind":"modified","path":"b.txt"`) || !strings.Contains(got, `"action":"discarded"`) {
		t.Errorf("review_discard = %s", got)
	}
	if got := mustJSON(ok(t, rv, "review_list", `{}`)["changes"]); got != "[]" {
		t.Errorf("pending after discard = %s", got)
	}

	// The reviewer's actions are in the root's journal, actor review.
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := w.History().List(context.Background(), llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	actors := map[string]bool{}
	for _, c := range cs {
		if !strings.HasPrefix(c.Actor, "mcp:") { // the reviewer's session (issue 35)
			continue
		}
		ops = append(ops, c.Op+" "+w.Paths().Rel(c.Path))
		actors[c.Actor] = true
	}
	// One session, one actor: each call made up an id of its own for a stdio session.
	if len(actors) != 1 {
		t.Errorf("the reviewer's changes are under %d actors (%v), want its session's one", len(actors), actors)
	}
	if got := strings.Join(ops, ", "); got != "discard b.txt, apply new.txt, apply a.txt" {
		t.Errorf("journal of the review = %s", got)
	}
}

// TestReviewerInProcess: the Go API of the reviewer's server, over in-memory transports; a
// server made by New over the same overlay offers none of its tools.
func TestReviewerInProcess(t *testing.T) {
	ctx := context.Background()
	dir := tempDir(t)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A\n"), 0o644)
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
	agent := connect(asrv)
	if slices.ContainsFunc(toolNames(t, agent), func(n string) bool { return strings.HasPrefix(n, "review_") }) {
		t.Errorf("mcpserver.New offers review tools")
	}
	if res, err := agent.CallTool(ctx, &mcp.CallToolParams{Name: "review_apply", Arguments: map[string]any{}}); err == nil && !res.IsError {
		t.Errorf("the agent's server ran review_apply")
	}
	ok(t, agent, "file_write", `{"path":"a.txt","content":"B\n"}`)
	rsrv, err := mcpserver.NewReviewer(agentWS, ov, nil)
	if err != nil {
		t.Fatal(err)
	}
	rv := connect(rsrv)
	fails(t, rv, "review_diff", `{"paths":"a.txt"}`, "INVALID_ARGUMENT")
	fails(t, rv, "review_list", `{"extra":1}`, "INVALID_ARGUMENT")
	ok(t, rv, "review_apply", `{"paths":["a.txt"],"hunks":[1]}`)
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "B\n" {
		t.Errorf("host a.txt = %q", b)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
