package sysfiles_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

// TestAgentMDTellsTheTruth: Issue 13.12: AGENT.md said an rtc agent in full mode could
// delete files (rtc has no delete tool), and counted files the tools never show (ignored
// and denied ones). It says what the tools can do and counts what find and grep see.
func TestAgentMDTellsTheTruth(t *testing.T) {
	ws := llmfs.New(mem.New(), &llmfs.Options{Deny: []string{"private/**"}})
	open := llmfs.New(ws.Store(), &llmfs.Options{NoDefaultDeny: true})
	write(t, open, ".gitignore", "build/\n*.log\n")
	write(t, open, "src/main.go", "package main\n")
	write(t, open, "src/debug.log", "ignored\n")
	write(t, open, "build/out.bin", "ignored\n")
	write(t, open, "build/more/out2.bin", "ignored\n")
	write(t, open, "private/notes.txt", "denied\n")
	write(t, open, "vendor/lib/.git/config", "denied\n")
	write(t, open, "vendor/lib/lib.go", "package lib\n")

	wantStatus(t, ensure(t, ws, &sysfiles.Options{Tools: toolsOf(t, tools.RTC, llmfs.Full), Virtual: true}), "AGENT.md", sysfiles.Created)
	got := read(t, ws, "AGENT.md")
	if strings.Contains(got, "delete files") && !strings.Contains(got, "none of your tools deletes files") {
		t.Errorf("rtc AGENT.md claims deletes:\n%s", got)
	}
	for _, want := range []string{"holds 2 files in 3 directories", "`/src/`: 1 file", "`/vendor/`: 1 file", "`/build/`: no files that find or grep see"} {
		if !strings.Contains(got, want) {
			t.Errorf("rtc AGENT.md lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "/private/") {
		t.Errorf("AGENT.md shows a denied directory:\n%s", got)
	}

	// The agentool dialect in full mode has a delete tool, and says so.
	ws2 := llmfs.New(mem.New(), nil)
	wantStatus(t, ensure(t, ws2, &sysfiles.Options{Tools: toolsOf(t, tools.Agentool, llmfs.Full)}), "AGENT.md", sysfiles.Created)
	if got := read(t, ws2, "AGENT.md"); !strings.Contains(got, "create, change and delete files") {
		t.Errorf("agentool full AGENT.md:\n%s", got)
	}
}
