package sysfiles_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

// toolsOf derives the tool list of AGENT.md from the tool definitions, as faces do.
func toolsOf(t *testing.T, d tools.Dialect, m llmfs.Mode) []sysfiles.Tool {
	t.Helper()
	defs, err := tools.Definitions(d, m)
	if err != nil {
		t.Fatal(err)
	}
	var out []sysfiles.Tool
	for _, def := range defs {
		out = append(out, sysfiles.Tool{Name: def.Name, Description: def.Description, ReadOnly: def.ReadOnly})
	}
	return out
}

func write(t *testing.T, ws *llmfs.Workspace, p, content string) {
	t.Helper()
	if _, err := ws.Write(context.Background(), p, content, llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, ws *llmfs.Workspace, p string) string {
	t.Helper()
	res, err := ws.Read(context.Background(), p, llmfs.ReadOptions{Limit: llmfs.NoLimit})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content
}

func ensure(t *testing.T, ws *llmfs.Workspace, opts *sysfiles.Options) map[string]sysfiles.Status {
	t.Helper()
	res, err := sysfiles.Ensure(context.Background(), ws, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]sysfiles.Status{}
	for _, r := range res {
		out[r.Path] = r.Status
	}
	return out
}

func wantStatus(t *testing.T, got map[string]sysfiles.Status, p string, want sysfiles.Status) {
	t.Helper()
	if got[p] != want {
		t.Fatalf("Ensure: %s %q, want %q (all: %v)", p, got[p], want, got)
	}
}

func TestAgentMDLifecycleOnMem(t *testing.T) {
	ctx := context.Background()
	ws := llmfs.New(mem.New(), nil)
	write(t, ws, "README.md", "# demo\n")
	write(t, ws, "src/main.go", "package main\n")
	write(t, ws, "src/util/util.go", "package util\n")
	if _, err := ws.Store().WriteFile(ctx, ".env", strings.NewReader("SECRET=1\n"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	opts := &sysfiles.Options{Tools: toolsOf(t, tools.RTC, llmfs.Full), Virtual: true}

	wantStatus(t, ensure(t, ws, opts), "AGENT.md", sysfiles.Created)
	got := read(t, ws, "/AGENT.md")
	for _, want := range []string{"`/` is its root", "`/src/`: 2 files", "`/README.md` (7 bytes)", "Notable files: `/README.md`",
		"`read`: Read a text file.", "`edit`:", "Work mode: **full**", "2 directories"} {
		if !strings.Contains(got, want) {
			t.Errorf("AGENT.md lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "SECRET") || strings.Contains(got, "`/.env` (") {
		t.Errorf("AGENT.md shows a denied file:\n%s", got)
	}

	// Unedited: current on every open.
	wantStatus(t, ensure(t, ws, opts), "AGENT.md", sysfiles.Unchanged)
	write(t, ws, "docs/guide.md", "guide\n")
	wantStatus(t, ensure(t, ws, opts), "AGENT.md", sysfiles.Refreshed)
	if got := read(t, ws, "/AGENT.md"); !strings.Contains(got, "`/docs/`: 1 file") {
		t.Errorf("refreshed AGENT.md lacks the new directory:\n%s", got)
	}

	// Edited: never touched again.
	if _, err := ws.Edit(ctx, "AGENT.md", "# AGENT.md", "# AGENT.md (mine)", false); err != nil {
		t.Fatal(err)
	}
	edited := read(t, ws, "/AGENT.md")
	write(t, ws, "more/x.txt", "x")
	wantStatus(t, ensure(t, ws, opts), "AGENT.md", sysfiles.Kept)
	wantStatus(t, ensure(t, ws, &sysfiles.Options{Virtual: true}), "AGENT.md", sysfiles.Kept)
	if got := read(t, ws, "/AGENT.md"); got != edited {
		t.Errorf("Ensure changed an edited AGENT.md:\n%s", got)
	}

	// Restored on demand, then current again.
	if err := sysfiles.Restore(ctx, ws, "/AGENT.md", opts); err != nil {
		t.Fatal(err)
	}
	if got := read(t, ws, "/AGENT.md"); strings.Contains(got, "(mine)") || !strings.Contains(got, "`/more/`") {
		t.Errorf("restored AGENT.md:\n%s", got)
	}
	write(t, ws, "late.txt", "late")
	wantStatus(t, ensure(t, ws, opts), "AGENT.md", sysfiles.Refreshed)

	// Deleted: generated again, as when missing.
	if _, err := ws.Delete(ctx, "AGENT.md"); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, ensure(t, ws, opts), "AGENT.md", sysfiles.Created)
}

func TestAgentMDUserFileKept(t *testing.T) {
	ws := llmfs.New(mem.New(), nil)
	write(t, ws, "AGENT.md", "my own notes\n")
	wantStatus(t, ensure(t, ws, nil), "AGENT.md", sysfiles.Kept)
	if got := read(t, ws, "AGENT.md"); got != "my own notes\n" {
		t.Errorf("AGENT.md = %q", got)
	}
}

func TestAgentMDDescribesMode(t *testing.T) {
	for _, m := range []llmfs.Mode{llmfs.ReadOnly, llmfs.ReadWrite, llmfs.Full} {
		ws := llmfs.New(mem.New(), &llmfs.Options{Mode: m, Quota: llmfs.Quota{MaxFileBytes: 1 << 20}})
		wantStatus(t, ensure(t, ws, &sysfiles.Options{Tools: toolsOf(t, tools.Agentool, m)}), "AGENT.md", sysfiles.Created)
		got := read(t, ws, "AGENT.md")
		if !strings.Contains(got, "Work mode: **"+string(m)+"**") || !strings.Contains(got, "1.0 MiB per file") {
			t.Errorf("mode %s: AGENT.md:\n%s", m, got)
		}
		for _, d := range toolsOf(t, tools.Agentool, llmfs.Full) {
			offered := strings.Contains(got, "`"+d.Name+"`")
			if want := m.Allows(opOf(d.Name)); offered != want {
				t.Errorf("mode %s: AGENT.md lists %s: %v, want %v", m, d.Name, offered, want)
			}
		}
	}
}

func opOf(tool string) llmfs.Op {
	switch tool {
	case "file_read":
		return llmfs.OpRead
	case "directory_list":
		return llmfs.OpList
	case "file_delete":
		return llmfs.OpDelete
	case "file_find":
		return llmfs.OpFind
	case "file_grep":
		return llmfs.OpGrep
	}
	return llmfs.OpWrite
}

func TestSystemFileOnDeniedPath(t *testing.T) {
	s := mem.New()
	ws := llmfs.New(s, &llmfs.Options{Deny: []string{"AGENT.md"}})
	wantStatus(t, ensure(t, ws, nil), "AGENT.md", sysfiles.Denied)
	if _, err := s.Stat(context.Background(), "AGENT.md"); err == nil {
		t.Error("AGENT.md written on a denied path")
	}
	err := sysfiles.Restore(context.Background(), ws, "AGENT.md", nil)
	if llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
		t.Errorf("Restore on a denied path: %v", err)
	}
}

func TestRegisteredGenerator(t *testing.T) {
	ctx := context.Background()
	reg := &sysfiles.Registry{}
	reg.Register("agent.md", sysfiles.AgentMD)
	reg.Register("functions", sysfiles.FunctionDocs)
	ws := llmfs.New(mem.New(), nil)
	opts := &sysfiles.Options{Tools: toolsOf(t, tools.RTC, llmfs.Full), Registry: reg, Virtual: true}
	got := ensure(t, ws, opts)
	for _, p := range []string{"AGENT.md", "functions/read.md", "functions/edit.md", "functions/ls.md"} {
		wantStatus(t, got, p, sysfiles.Created)
	}
	if doc := read(t, ws, "functions/read.md"); !strings.HasPrefix(doc, "# read\n") {
		t.Errorf("functions/read.md = %q", doc)
	}
	write(t, ws, "functions/read.md", "my notes on read\n")
	got = ensure(t, ws, opts)
	wantStatus(t, got, "functions/read.md", sysfiles.Kept)
	wantStatus(t, got, "functions/edit.md", sysfiles.Unchanged)
	if err := sysfiles.Restore(ctx, ws, "/functions/read.md", opts); err != nil {
		t.Fatal(err)
	}
	if doc := read(t, ws, "functions/read.md"); !strings.HasPrefix(doc, "# read\n") {
		t.Errorf("restored functions/read.md = %q", doc)
	}
	err := sysfiles.Restore(ctx, ws, "/notes.md", opts)
	if llmfs.CodeOf(err) != llmfs.CodeInvalidArgument || !strings.Contains(err.Error(), "/functions/read.md") {
		t.Errorf("Restore of a non-system file: %v", err)
	}
}

// bare hides every optional interface of a store, metadata included.
type bare struct{ store.Store }

func TestStoreWithoutMetadata(t *testing.T) {
	ws := llmfs.New(bare{mem.New()}, nil)
	wantStatus(t, ensure(t, ws, nil), "AGENT.md", sysfiles.Created)
	write(t, ws, "new.txt", "x")
	// Without a record of what was generated, the file cannot be told from an edit.
	wantStatus(t, ensure(t, ws, nil), "AGENT.md", sysfiles.Kept)
}

func TestReadOnlyWorkspaceGetsAgentMD(t *testing.T) {
	ws := llmfs.New(mem.New(), &llmfs.Options{Mode: llmfs.ReadOnly})
	wantStatus(t, ensure(t, ws, nil), "AGENT.md", sysfiles.Created)
	if got := read(t, ws, "AGENT.md"); !strings.Contains(got, "but not change them") {
		t.Errorf("AGENT.md of a read-only workspace:\n%s", got)
	}
}

// AGENT.md must not tell a model of a relaxed workspace that nothing outside the root can
// be reached.
func TestAgentMDRelaxed(t *testing.T) {
	ctx := context.Background()
	for _, relaxed := range []bool{false, true} {
		ws := llmfs.New(mem.New(), &llmfs.Options{Root: "/srv/ws", Relaxed: relaxed})
		files, err := sysfiles.AgentMD(ctx, &sysfiles.Env{Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		text := string(files[0].Content)
		if says := strings.Contains(text, "nothing outside it can be reached"); says == relaxed {
			t.Errorf("relaxed %v: AGENT.md says nothing outside the root can be reached: %v\n%s", relaxed, says, text)
		}
	}
}
