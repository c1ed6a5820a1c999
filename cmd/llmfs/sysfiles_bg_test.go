//go:build !js && !wasip1

package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/llmfs/llmfs/sysfiles"
)

// TestMCPAgentMDOffInitializePath: Issue 12.2: `llmfs mcp` generated AGENT.md before it
// served anything, on context.Background(): a large tree held up initialize for minutes
// and SIGTERM could not stop it. The server is now made while the generation runs in the
// background, on the command's context; closing the command cancels it and waits for it.
func TestMCPAgentMDOffInitializePath(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	started := make(chan struct{})
	stopped := make(chan error, 1)
	// A generator that runs until its context is done: a tree that never ends.
	sysfiles.Default.Register("test-endless", func(ctx context.Context, env *sysfiles.Env) ([]sysfiles.File, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return nil, ctx.Err()
	})
	defer sysfiles.Default.Register("test-endless", func(context.Context, *sysfiles.Env) ([]sysfiles.File, error) { return nil, nil })

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := &env{stdin: nil, stdout: io.Discard, stderr: io.Discard}
	e.ws.stderr, e.ws.ctx = io.Discard, ctx
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var f mcpFlags
	f.register(fs, &e.ws)
	if err := fs.Parse([]string{"--root", t.TempDir(), "--dialect", "rtc", "--agent-md"}); err != nil {
		t.Fatal(err)
	}
	srv, err := f.server(e, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil || srv == nil {
		t.Fatalf("server: %v", err)
	}
	// The server exists (it can answer initialize) while the generation still runs.
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("the system files were never generated")
	}
	select {
	case err := <-stopped:
		t.Fatalf("the generation ended (%v) before the command closed", err)
	default:
	}
	if err := e.ws.close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-stopped:
		if err == nil {
			t.Error("the generation ended without its context done")
		}
	default:
		t.Fatal("close returned before the generation stopped")
	}
}
