//go:build !js && !wasip1

package tools_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// Issue 13.10: results were json.Marshal'ed, so "a < b && c > d" reached a model as
// "a \u003c b \u0026\u0026 c \u003e d". No result or error text escapes them now, and
// an rtc read's text is its numbered lines with a trailing note.
func TestResultsNotHTMLEscaped(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("if a < b && c > d {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		d          tools.Dialect
		name, args string
		text       string
	}{
		{tools.Agentool, "file_read", `{"path":"x.go"}`, `{"content":"if a < b && c > d {}\n","total_lines":1}`},
		{tools.Agentool, "file_grep", `{"pattern":"<","output_mode":"content"}`, `{"count":1,"mode":"content","output":"x.go:1:if a < b && c > d {}\n"}`},
		{tools.RTC, "read", `{"path":"/x.go"}`, "     1\tif a < b && c > d {}\n(the whole file: 1 line)\n"},
		{tools.RTC, "read", `{"path":"/x.go","limit":0}`, "(no lines asked for; the file has 1 line)\n"},
	} {
		tb, err := tools.New(ws, c.d)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tb.CallResult(ctx, c.name, []byte(c.args))
		if err != nil {
			t.Fatalf("%s %s: %v", c.name, c.args, err)
		}
		if res.Text != c.text {
			t.Errorf("%s %s: text\n%s, want\n%s", c.name, c.args, res.Text, c.text)
		}
		if strings.Contains(string(res.JSON), `\u00`) {
			t.Errorf("%s: JSON escapes: %s", c.name, res.JSON)
		}
	}
	_, err = ws.Read(ctx, "<&>.txt", llmfs.ReadOptions{})
	if b := tools.ErrorJSON(err); !strings.Contains(string(b), "<&>") {
		t.Errorf("ErrorJSON: %s", b)
	}
}
