//go:build !js && !wasip1

package sysfiles_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

// TestAgentMDOnHostDirectory follows AGENT.md on a real directory across "restarts" (a
// fresh host.Open each time), with an edit made on disk while llmfs was not running.
func TestAgentMDOnHostDirectory(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module demo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(dir, "AGENT.md")
	opts := &sysfiles.Options{Tools: toolsOf(t, tools.Agentool, llmfs.Full)}
	open := func() *llmfs.Workspace {
		t.Helper()
		ws, err := host.Open(&llmfs.Options{Root: dir})
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	diskRead := func() string {
		t.Helper()
		b, err := os.ReadFile(agent)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	wantStatus(t, ensure(t, open(), opts), "AGENT.md", sysfiles.Created)
	if got := diskRead(); !strings.Contains(got, "Notable files: `go.mod`") || !strings.Contains(got, "`file_read`") {
		t.Errorf("AGENT.md:\n%s", got)
	}
	// The record lives outside the root: the directory holds only what the user put there.
	if es, _ := os.ReadDir(dir); len(es) != 2 {
		t.Errorf("the root holds %d entries, want go.mod and AGENT.md", len(es))
	}
	st := open().Store().(*osdir.Store)
	mp, err := st.MetaPath()
	if err != nil || !strings.HasPrefix(mp, cache) {
		t.Errorf("MetaPath = %q, %v; want a file under %s", mp, err, cache)
	}

	// A change while llmfs is down: the unedited file is refreshed at the next open.
	if err := os.MkdirAll(filepath.Join(dir, "cmd"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cmd", "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, ensure(t, open(), opts), "AGENT.md", sysfiles.Refreshed)
	if got := diskRead(); !strings.Contains(got, "`cmd/`: 1 file") {
		t.Errorf("refreshed AGENT.md lacks cmd/:\n%s", got)
	}
	wantStatus(t, ensure(t, open(), opts), "AGENT.md", sysfiles.Unchanged)

	// The user edits AGENT.md on disk while llmfs is down: it is never touched again.
	edited := diskRead() + "\nMy own rule: never touch cmd/.\n"
	if err := os.WriteFile(agent, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		wantStatus(t, ensure(t, open(), opts), "AGENT.md", sysfiles.Kept)
	}
	if got := diskRead(); got != edited {
		t.Errorf("an edited AGENT.md was changed:\n%s", got)
	}

	// Restore on demand, then current again.
	if err := sysfiles.Restore(ctx, open(), "AGENT.md", opts); err != nil {
		t.Fatal(err)
	}
	if got := diskRead(); strings.Contains(got, "My own rule") || !strings.Contains(got, "`extra.txt`") {
		t.Errorf("restored AGENT.md:\n%s", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra2.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, ensure(t, open(), opts), "AGENT.md", sysfiles.Refreshed)
}

// TestWanted: Issue 13.12: on a host directory AGENT.md is written only on request, as
// DESIGN.md says, rtc or not (a one-shot rtc read of a repository left one in it);
// virtual stores keep generating it by default.
func TestWanted(t *testing.T) {
	host := func(m llmfs.Mode) *llmfs.Workspace {
		ws, err := host.Open(&llmfs.Options{Root: t.TempDir(), Mode: m})
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	type test struct {
		name string
		ws   *llmfs.Workspace
		rtc  bool
		want bool
	}
	for _, tt := range []test{
		{"mem", llmfs.New(mem.New(), nil), false, true},
		{"mem read-only", llmfs.New(mem.New(), &llmfs.Options{Mode: llmfs.ReadOnly}), false, true},
		{"host agentool", host(llmfs.Full), false, false},
		{"host rtc", host(llmfs.ReadWrite), true, false},
		{"host rtc full", host(llmfs.Full), true, false},
		{"host rtc read-only", host(llmfs.ReadOnly), true, false},
	} {
		if got := sysfiles.Wanted(tt.ws, tt.rtc); got != tt.want {
			t.Errorf("Wanted(%s, rtc=%v) = %v, want %v", tt.name, tt.rtc, got, tt.want)
		}
	}
}
