package stdio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs/mcpserver/internal/unescape"
	"github.com/llmfs/llmfs/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAppendTextResultAsGoSDK checks that appendTextResult writes a result as the go-sdk's
// MarshalJSON does, once the HTML escapes of both are undone, and leaves the results it
// does not know to MarshalJSON.
func TestAppendTextResultAsGoSDK(t *testing.T) {
	texts := []string{"", "plain", "a < b && c > d", "\u2028\u2029", "\xff\xfe", `"quoted" \ back`, "\x00\x01\t\n", "ünï €", `\u003c`}
	for _, text := range texts {
		structured, err := tools.Marshal(map[string]any{"content": text, "n": 1, "list": []string{text}})
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range []*mcp.CallToolResult{
			{Content: []mcp.Content{&mcp.TextContent{Text: text}}},
			{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(structured)},
			{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true},
		} {
			got, ok := appendTextResult(nil, res)
			want, err := res.MarshalJSON()
			if !ok || err != nil {
				t.Fatalf("%q: appendTextResult %v, MarshalJSON %v", text, ok, err)
			}
			g, _ := unescape.HTML(nil, got)
			w, _ := unescape.HTML(nil, want)
			if !bytes.Equal(g, w) {
				t.Errorf("%q:\nappendTextResult %s\nMarshalJSON      %s", text, g, w)
			}
		}
	}
	for _, res := range []*mcp.CallToolResult{
		{Meta: mcp.Meta{"k": 1}, Content: []mcp.Content{&mcp.TextContent{Text: "x"}}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x"}, &mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x", Annotations: &mcp.Annotations{Priority: 1}}}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: map[string]any{"a": 1}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: json.RawMessage("{\"a\":\"\u2028\"}")},
		{Content: []mcp.Content{}},
	} {
		if got, ok := appendTextResult(nil, res); ok {
			t.Errorf("appendTextResult took %#v: %s", res, got)
		}
	}
}

// gateWriter records each Write; the first waits for open to be closed.
type gateWriter struct {
	open   chan struct{}
	mu     sync.Mutex
	writes []string
}

func (w *gateWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	first := len(w.writes) == 0
	w.writes = append(w.writes, string(p))
	w.mu.Unlock()
	if first {
		<-w.open
	}
	return len(p), nil
}

// TestWriteLineBatches checks that the lines queued while a write is under way go out
// together in the next write, each whole, and that every writer returns once its line is
// written.
func TestWriteLineBatches(t *testing.T) {
	w := &gateWriter{open: make(chan struct{})}
	c := &stdioConn{out: w}
	var wg sync.WaitGroup
	wg.Go(func() { c.writeLine([]byte(`{"n":0}`)) })
	for {
		w.mu.Lock()
		n := len(w.writes)
		w.mu.Unlock()
		if n == 1 {
			break // the first write is under way
		}
		time.Sleep(time.Millisecond)
	}
	for i := 1; i <= 4; i++ {
		wg.Go(func() { c.writeLine(fmt.Appendf(nil, `{"n":%d,"s":"\u003c"}`, i)) })
	}
	for {
		c.writeMu.Lock()
		queued := c.queued
		c.writeMu.Unlock()
		if queued == 5 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(w.open)
	wg.Wait()
	if len(w.writes) != 2 || w.writes[0] != "{\"n\":0}\n" {
		t.Fatalf("writes %q, want the first line alone, then the other four together", w.writes)
	}
	lines := strings.Split(strings.TrimSuffix(w.writes[1], "\n"), "\n")
	slices.Sort(lines)
	want := []string{`{"n":1,"s":"<"}`, `{"n":2,"s":"<"}`, `{"n":3,"s":"<"}`, `{"n":4,"s":"<"}`}
	if !slices.Equal(lines, want) {
		t.Errorf("second write %q, want the lines %q", w.writes[1], want)
	}
}
