//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// Issue 32.15: rtc ls and agentool directory_list (with and without names_only) come in
// pages of at most MaxReadBytes (256 KiB by default) of JSON, with truncated and
// next_offset, and offset walks the whole directory with no entry lost or repeated.
func TestListPaged(t *testing.T) {
	dir := t.TempDir()
	const n = 7000 // 38-byte names: over 256 KiB in all, even as names alone
	for i := range n {
		name := fmt.Sprintf("file-with-a-fairly-long-name-%05d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d          tools.Dialect
		tool, args string
		key        string
	}{
		{tools.RTC, "ls", `"path":"/"`, "entries"},
		{tools.Agentool, "directory_list", `"path":"."`, "entries"},
		{tools.Agentool, "directory_list", `"path":".","names_only":true`, "names"},
	} {
		tb, err := tools.New(ws, c.d)
		if err != nil {
			t.Fatal(err)
		}
		seen, pages, offset := 0, 0, 1
		for {
			res, err := tb.CallResult(context.Background(), c.tool, json.RawMessage(fmt.Sprintf(`{%s,"offset":%d}`, c.args, offset)))
			if err != nil {
				t.Fatalf("%s %s offset %d: %v", c.d, c.tool, offset, err)
			}
			if len(res.JSON) > llmfs.DefaultMaxReadBytes+1024 || len(res.Text) > llmfs.DefaultMaxReadBytes+1024 {
				t.Fatalf("%s %s: a page of %d bytes (text %d)", c.d, c.tool, len(res.JSON), len(res.Text))
			}
			var out struct {
				Entries    []llmfs.Entry
				Names      []string
				Truncated  bool
				NextOffset int `json:"next_offset"`
			}
			if err := json.Unmarshal(res.JSON, &out); err != nil {
				t.Fatal(err)
			}
			got := len(out.Entries) + len(out.Names)
			first := fmt.Sprintf("%05d", seen)
			if got == 0 || !strings.Contains(string(res.JSON), first) {
				t.Fatalf("%s %s offset %d: %d entries, want the page to start at %s", c.d, c.tool, offset, got, first)
			}
			seen += got
			pages++
			if !out.Truncated {
				break
			}
			if out.NextOffset != seen+1 {
				t.Fatalf("%s %s: next_offset %d after %d entries", c.d, c.tool, out.NextOffset, seen)
			}
			if c.key == "names" && !strings.Contains(res.Text, fmt.Sprintf("continue with offset=%d", out.NextOffset)) {
				t.Errorf("%s %s: the text does not say where to continue", c.d, c.tool)
			}
			offset = out.NextOffset
		}
		if seen != n || pages < 2 {
			t.Errorf("%s %s: %d entries in %d pages, want %d in 2 or more", c.d, c.tool, seen, pages, n)
		}
	}
}

// A listing asked past its end says so, as a read past the end does, rather than an empty
// page that reads as an empty directory (found by a review).
func TestListPastEnd(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d          tools.Dialect
		tool, args string
	}{
		{tools.RTC, "ls", `"path":"/"`},
		{tools.Agentool, "directory_list", `"path":"."`},
		{tools.Agentool, "directory_list", `"path":".","names_only":true`},
		{tools.Codex, "list_dir", `"dir_path":"."`},
	} {
		tb, err := tools.New(ws, c.d)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tb.CallResult(context.Background(), c.tool, json.RawMessage(fmt.Sprintf(`{%s,"offset":9}`, c.args)))
		if err != nil {
			t.Fatalf("%s %s: %v", c.d, c.tool, err)
		}
		const want = "offset 9 is past the end; the listing has 3 entries"
		if !strings.Contains(string(res.JSON), want) || (res.Text != "" && !strings.Contains(res.Text, want)) {
			t.Errorf("%s %s: %s / %q, want %q", c.d, c.tool, res.JSON, res.Text, want)
		}
		if strings.Contains(res.Text, "empty") {
			t.Errorf("%s %s: a page past the end reads as an empty directory: %q", c.d, c.tool, res.Text)
		}
	}
}
