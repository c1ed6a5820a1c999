package acp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	p := newPeerProject(t)
	// The agent is this test binary; it inherits these.
	t.Setenv("LLMFS_ACP_PEER", "agent")
	t.Setenv("LLMFS_ACP_RESULT", p.result)
	t.Setenv("LLMFS_ACP_OUTSIDE", filepath.Join(p.outside, "secret.txt"))
	ctx := context.Background()

	var stdout bytes.Buffer
	// The prompt on stdin.
	err := Command(ctx, []string{"--root", p.root, "--approve", "none", "--", os.Args[0]}, strings.NewReader("direct\n"), &stdout, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("Command: %v\n%s", err, stdout.String())
	}
	if got := p.file(t, "new.txt"); got != "fresh\n" {
		t.Errorf("new.txt = %q", got)
	}
	if !strings.Contains(stdout.String(), "done: direct") || !strings.Contains(stdout.String(), "--- 4 file(s) changed") {
		t.Errorf("output:\n%s", stdout.String())
	}

	// The prompt as a flag, a read-only mode: the agent's writes are refused.
	p2 := newPeerProject(t)
	t.Setenv("LLMFS_ACP_RESULT", p2.result)
	stdout.Reset()
	err = Command(ctx, []string{"--root", p2.root, "--mode", "read-only", "--prompt", "direct", "--", os.Args[0]}, strings.NewReader(""), &stdout, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("Command read-only: %v", err)
	}
	if r := p2.results(t)["write new"]; r.Code != CodeMethodNotFound {
		t.Errorf("write under read-only = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(p2.root, "new.txt")); err == nil {
		t.Error("read-only run wrote new.txt")
	}

	for _, args := range [][]string{
		{"--prompt", "x"},
		{"--mode", "rw", "--prompt", "x", "--", "agent"},
		{"--approve", "sometimes", "--prompt", "x", "--", "agent"},
		{"--bogus", "--", "agent"},
		{"--prompt", "  ", "--", "agent"},
	} {
		err := Command(ctx, args, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("Command(%q) = %v, want a UsageError", args, err)
		}
	}
}
