//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestJournalActorStdioSession: issue 14.2, a stdio session has no protocol session ID,
// and its changes were journaled as plain "mcp"; each gets an mcp:<id> of its own.
func TestJournalActorStdioSession(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := tempDir(t)
	a := stdioSession(t, nil, "--root", dir)
	ok(t, a, "file_write", `{"path":"a.txt","content":"from a\n"}`)
	a.Close()
	b := stdioSession(t, nil, "--root", dir)
	ok(t, b, "file_write", `{"path":"b.txt","content":"from b\n"}`)
	b.Close()
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := w.History().List(context.Background(), llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	actors := map[string]string{}
	for _, c := range cs {
		actors[w.Paths().Rel(c.Path)] = c.Actor
	}
	for _, p := range []string{"a.txt", "b.txt"} {
		// Issue 35.5: the client's name, then the session's id, so people see which agent.
		if id, found := strings.CutPrefix(actors[p], "mcp:llmfs-test/stdio-"); !found || len(id) != 12 {
			t.Errorf("actor of %s = %q, want mcp:llmfs-test/stdio-<id>", p, actors[p])
		}
	}
	if actors["a.txt"] == actors["b.txt"] {
		t.Errorf("two stdio sessions share the actor %q", actors["a.txt"])
	}
}

// TestJournalActorPerSession: issue 14.2, each MCP session's changes are journaled under
// an actor of its own, and another process following the journal sees them (the feed the
// console will use).
func TestJournalActorPerSession(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := tempDir(t)
	s := startServe(t, "--root", dir)
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.connect(t, nil), s.connect(t, nil)
	ok(t, a, "file_write", `{"path":"a.txt","content":"from a\n"}`)
	ok(t, b, "file_write", `{"path":"b.txt","content":"from b\n"}`)
	cs, err := w.History().List(context.Background(), llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	actors := map[string]string{}
	for _, c := range cs {
		actors[w.Paths().Rel(c.Path)] = c.Actor
	}
	if !strings.HasPrefix(actors["a.txt"], "mcp:") || !strings.HasPrefix(actors["b.txt"], "mcp:") || actors["a.txt"] == actors["b.txt"] {
		t.Errorf("actors = %v, want a distinct mcp:<session> for each session", actors)
	}
	// The feed: a change by the server wakes a waiter in this process.
	last := cs[0].ID
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done <- w.History().WaitChange(ctx, last)
	}()
	ok(t, a, "file_write", `{"path":"a.txt","content":"again\n"}`)
	if err := <-done; err != nil {
		t.Errorf("WaitChange: %v", err)
	}
}

// TestJournalActorStatelessHTTP: a request of the stateless revision (2026-07-28) over HTTP
// has no protocol session ID either; its made-up id said "stdio-", which it is not.
func TestJournalActorStatelessHTTP(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := tempDir(t)
	cs := startServe(t, "--root", dir).connect(t, clientAt("2026-07-28"))
	ok(t, cs, "file_write", `{"path":"a.txt","content":"over http\n"}`)
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs2, err := w.History().List(context.Background(), llmfs.HistoryFilter{})
	if err != nil || len(cs2) == 0 {
		t.Fatalf("history: %v, %v", cs2, err)
	}
	_, id, found := strings.Cut(cs2[0].Actor, "/http-")
	if !strings.HasPrefix(cs2[0].Actor, "mcp:llmfs-test") || !found || len(id) != 12 {
		t.Errorf("actor = %q, want mcp:<client>/http-<id>", cs2[0].Actor)
	}
}
