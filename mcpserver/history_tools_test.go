//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	return names
}

func fileHolds(t *testing.T, name, want string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil || string(b) != want {
		t.Fatalf("%s = %q (%v), want %q", filepath.Base(name), b, err, want)
	}
}

// TestHistoryToolsEveryDialect: issue 14.7, with Options.HistoryTools every dialect
// offers history and undo (and without it none does); through a real client, a patch
// shows in history in the dialect's paths, with outputSchema-valid results, and undo by
// path takes it back.
func TestHistoryToolsEveryDialect(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	for _, d := range tools.Dialects {
		t.Run(string(d), func(t *testing.T) {
			dir := tempDir(t)
			writeFile(t, filepath.Join(dir, "a.txt"), "one\n")
			ws := openWS(t, dir, llmfs.Options{})
			plain, err := mcpserver.New(ws, &mcpserver.Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			if names := toolNames(t, connectInMemory(t, plain, nil)); slices.Contains(names, "history") || slices.Contains(names, "undo") {
				t.Fatalf("history tools offered without HistoryTools: %v", names)
			}
			srv, err := mcpserver.New(ws, &mcpserver.Options{Dialect: d, HistoryTools: true})
			if err != nil {
				t.Fatal(err)
			}
			cs := connectInMemory(t, srv, nil)
			if names := toolNames(t, cs); !slices.Contains(names, "history") || !slices.Contains(names, "undo") {
				t.Fatalf("HistoryTools: tools %v lack history or undo", names)
			}
			p, shown := "a.txt", filepath.Join(dir, "a.txt")
			if tools.IsVirtual(d) {
				p, shown = "/a.txt", "/a.txt"
			}
			if d == tools.RTC {
				ok(t, cs, "read", fmt.Sprintf(`{"path":%q}`, p))
			}
			ok(t, cs, "patch", fmt.Sprintf(`{"patch":"<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n","path":%q}`, p))
			h := ok(t, cs, "history", `{}`)
			c := h["changes"].([]any)[0].(map[string]any)
			if c["path"] != shown || c["op"] != "patch" || !strings.HasPrefix(c["actor"].(string), "mcp:") {
				t.Errorf("newest change = %v, want a patch of %s by mcp:<session>", c, shown)
			}
			ok(t, cs, "history", fmt.Sprintf(`{"id":%v}`, c["id"]))
			ok(t, cs, "undo", fmt.Sprintf(`{"path":%q}`, p))
			fileHolds(t, filepath.Join(dir, "a.txt"), "one\n")
		})
	}
}

// TestHistoryToolsStdio: issue 14.7, `llmfs mcp --history-tools` offers the tools; an
// undo over a file changed outside llmfs since is refused with FILE_CHANGED, the model
// sees the diff, and the file is left as it is. Another session cannot undo by path what
// this one did.
func TestHistoryToolsStdio(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := tempDir(t)
	if names := toolNames(t, stdioSession(t, nil, "--root", dir)); slices.Contains(names, "undo") {
		t.Fatalf("llmfs mcp offers undo without --history-tools: %v", names)
	}
	cs := stdioSession(t, nil, "--root", dir, "--history-tools")
	ok(t, cs, "file_write", `{"path":"a.txt","content":"one\n"}`)
	ok(t, cs, "file_edit", `{"path":"a.txt","old_text":"one","new_text":"ONE"}`)
	writeFile(t, filepath.Join(dir, "a.txt"), "ONE\nby hand\n")
	msg := fails(t, cs, "undo", `{"path":"a.txt"}`, "FILE_CHANGED")
	if !strings.Contains(msg, "+by hand") {
		t.Errorf("FILE_CHANGED message lacks the diff: %q", msg)
	}
	fileHolds(t, filepath.Join(dir, "a.txt"), "ONE\nby hand\n")

	writeFile(t, filepath.Join(dir, "a.txt"), "ONE\n") // as the edit left it
	other := stdioSession(t, nil, "--root", dir, "--history-tools")
	fails(t, other, "undo", `{"path":"a.txt"}`, "INVALID_ARGUMENT")
	u := ok(t, cs, "undo", `{"path":"a.txt"}`)
	if d, _ := u["diff"].(string); !strings.Contains(d, "-ONE") || !strings.Contains(d, "+one") {
		t.Errorf("undo's diff = %q", d)
	}
	fileHolds(t, filepath.Join(dir, "a.txt"), "one\n")
}

// TestHistoryToolsServe: issue 14.7, `llmfs serve --history-tools` in the rtc dialect:
// virtual paths, undo by id of a change set.
func TestHistoryToolsServe(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "one\n")
	s := startServe(t, "--root", dir, "--dialect", "rtc", "--history-tools")
	cs := s.connect(t, nil)
	ok(t, cs, "write", `{"path":"/b.txt","content":"new\n"}`)
	h := ok(t, cs, "history", `{"path":"/b.txt"}`)
	c := h["changes"].([]any)[0].(map[string]any)
	if c["path"] != "/b.txt" || c["op"] != "write" {
		t.Fatalf("history = %v", h)
	}
	ok(t, cs, "undo", fmt.Sprintf(`{"id":%v}`, c["id"]))
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); !os.IsNotExist(err) {
		t.Errorf("undo of the write left b.txt: %v", err)
	}
}
