package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

var polModes = []llmfs.Mode{llmfs.ReadOnly, llmfs.ReadWrite, llmfs.Full}

// polLeastMode is the least mode that offers each known tool.
var polLeastMode = map[string]llmfs.Mode{
	// agentool
	"file_read": llmfs.ReadOnly, "directory_list": llmfs.ReadOnly, "file_find": llmfs.ReadOnly, "file_grep": llmfs.ReadOnly,
	"file_write": llmfs.ReadWrite, "file_edit": llmfs.ReadWrite, "directory_create": llmfs.ReadWrite,
	"file_move": llmfs.ReadWrite, "file_copy": llmfs.ReadWrite,
	"file_delete": llmfs.Full,
	// rtc
	"ls": llmfs.ReadOnly, "read": llmfs.ReadOnly, "find": llmfs.ReadOnly, "grep": llmfs.ReadOnly,
	"write": llmfs.ReadWrite, "edit": llmfs.ReadWrite,
}

func polRank(m llmfs.Mode) int { return slices.Index(polModes, m) }

// offered reports whether a tool should be offered in mode m. A tool this test does not
// know is judged by its read-only hint: read-only tools in every mode, others not in
// read-only.
func polOffered(d tools.Definition, m llmfs.Mode) bool {
	if least, ok := polLeastMode[d.Name]; ok {
		return polRank(m) >= polRank(least)
	}
	return d.ReadOnly || m != llmfs.ReadOnly
}

// polCallArgs are valid arguments for each known tool on the tree seeded by seed.
var polCallArgs = map[string]string{
	"file_read":        `{"path": "a.txt"}`,
	"directory_list":   `{"path": "."}`,
	"file_write":       `{"path": "new/w.txt", "content": "w"}`,
	"file_edit":        `{"path": "a.txt", "old_text": "alpha", "new_text": "ALPHA"}`,
	"directory_create": `{"path": "newdir"}`,
	"file_move":        `{"source": "a.txt", "destination": "moved/a.txt"}`,
	"file_copy":        `{"source": "a.txt", "destination": "copied/a.txt"}`,
	"file_delete":      `{"path": "a.txt"}`,
	"ls":               `{"path": "/"}`,
	"read":             `{"path": "/a.txt"}`,
	"write":            `{"path": "/new/w.txt", "content": "w"}`,
	"edit":             `{"path": "/a.txt", "old_string": "alpha", "new_string": "ALPHA"}`,
}

func polStoreSeed(t *testing.T) store.Store {
	t.Helper()
	s := mem.New()
	if _, err := s.WriteFile(context.Background(), "a.txt", strings.NewReader("alpha\n"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// snapshot lists every name and file content in s.
func polSnapshot(t *testing.T, s store.Store) string {
	t.Helper()
	ctx := context.Background()
	var sb strings.Builder
	var walk func(name string)
	walk = func(name string) {
		des, err := s.ReadDir(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			child := de.Name()
			if name != "." {
				child = name + "/" + child
			}
			sb.WriteString(child)
			if de.IsDir() {
				sb.WriteString("/\n")
				walk(child)
				continue
			}
			f, err := s.Open(ctx, child)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(f)
			f.Close()
			sb.WriteString("=" + string(b) + "\n")
		}
	}
	walk(".")
	return sb.String()
}

// TestModeEachToolEachDialect checks, for each dialect, mode and tool, that the
// definitions offer exactly what the mode allows, that a call of an offered tool runs, and
// that a call of another is refused with a reason a model can act on and changes nothing.
func TestModeEachToolEachDialect(t *testing.T) {
	ctx := context.Background()
	for _, d := range tools.Dialects {
		all, err := tools.Definitions(d, llmfs.Full)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range polModes {
			defs, err := tools.Definitions(d, m)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, def := range defs {
				names = append(names, def.Name)
			}
			for _, def := range all {
				t.Run(string(d)+"/"+string(m)+"/"+def.Name, func(t *testing.T) {
					want := polOffered(def, m)
					if got := slices.Contains(names, def.Name); got != want {
						t.Fatalf("Definitions(%s, %s) offers %s: %v, want %v", d, m, def.Name, got, want)
					}
					if want && m == llmfs.ReadOnly && !def.ReadOnly {
						t.Errorf("%s is offered in read-only mode but not hinted read-only", def.Name)
					}
					s := polStoreSeed(t)
					before := polSnapshot(t, s)
					// Read-before-edit (on by default in rtc) is not what this test is about.
					tb, err := tools.NewWithOptions(llmfs.New(s, &llmfs.Options{Mode: m}), d, &tools.Options{RequireRead: new(bool)})
					if err != nil {
						t.Fatal(err)
					}
					args, known := polCallArgs[def.Name]
					if !known {
						args = `{}`
					}
					out, err := tb.Call(ctx, def.Name, json.RawMessage(args))
					if want {
						if known && err != nil {
							t.Errorf("Call(%s %s) in mode %s: %v", def.Name, args, m, err)
						}
						return
					}
					if llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
						t.Fatalf("Call(%s) in mode %s = %s, %v; want PERMISSION_DENIED", def.Name, m, out, err)
					}
					obj := tools.ErrorOf(err)
					if !strings.Contains(obj.Message, "the workspace is "+string(m)) || !strings.Contains(obj.Message, def.Name) {
						t.Errorf("message %q does not say the mode refuses %s", obj.Message, def.Name)
					}
					for _, alt := range names {
						if !strings.Contains(obj.Message, alt) {
							t.Errorf("message %q does not name the available tool %s", obj.Message, alt)
						}
					}
					if after := polSnapshot(t, s); after != before {
						t.Errorf("refused call changed the store:\n%s\nwant\n%s", after, before)
					}
				})
			}
		}
	}
}

// TestDeniedToolResult checks that a tool call on a denied path says why in its result.
func TestDeniedToolResult(t *testing.T) {
	ctx := context.Background()
	s := polStoreSeed(t)
	if _, err := s.WriteFile(ctx, ".env", strings.NewReader("TOKEN=1\n"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d    tools.Dialect
		name string
		args string
	}{
		{tools.Agentool, "file_read", `{"path": ".env"}`},
		{tools.Agentool, "file_write", `{"path": ".ENV", "content": "x"}`},
		{tools.RTC, "read", `{"path": "/.env"}`},
		{tools.RTC, "edit", `{"path": "/.env", "old_string": "TOKEN", "new_string": "T"}`},
	} {
		tb, err := tools.New(llmfs.New(s, nil), c.d)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tb.Call(ctx, c.name, json.RawMessage(c.args))
		if !errors.Is(err, fs.ErrPermission) {
			t.Fatalf("%s %s: %v, want PERMISSION_DENIED", c.name, c.args, err)
		}
		if msg := tools.ErrorOf(err).Message; !strings.Contains(msg, "deny rule") || !strings.Contains(msg, "work with other files") {
			t.Errorf("%s: message %q does not explain the deny rule", c.name, msg)
		}
	}
	tb, _ := tools.New(llmfs.New(s, nil), tools.RTC)
	out, err := tb.Call(ctx, "ls", json.RawMessage(`{}`))
	if err != nil || strings.Contains(string(out), ".env") {
		t.Errorf("ls / = %s, %v; want no .env", out, err)
	}
}
