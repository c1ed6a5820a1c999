package tools_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

// Issue 17.6: the reads of the codex, anthropic and gemini dialects return an image as
// base64 with its MIME type, up to a size cap.
func TestReadImage(t *testing.T) {
	ctx := context.Background()
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + strings.Repeat("\x00", 40)
	for _, c := range []struct {
		d          tools.Dialect
		tool, args string
	}{
		{tools.Codex, "read_file", `{"file_path": "img/a.png"}`},
		{tools.Anthropic, "str_replace_based_edit_tool", `{"command": "view", "path": "/img/a.png"}`},
		{tools.Gemini, "read_file", `{"file_path": "img/a.png"}`},
	} {
		ws := llmfs.New(mem.New(), nil)
		if _, err := ws.Write(ctx, "img/a.png", png, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		tb, err := tools.New(ws, c.d)
		if err != nil {
			t.Fatal(err)
		}
		out, err := tb.Call(ctx, c.tool, json.RawMessage(c.args))
		if err != nil {
			t.Fatalf("%s: %v", c.d, err)
		}
		var res struct {
			Type, MIMEType, Data string
		}
		var raw map[string]any
		json.Unmarshal(out, &raw)
		res.Type, _ = raw["type"].(string)
		res.MIMEType, _ = raw["mime_type"].(string)
		res.Data, _ = raw["data"].(string)
		if b, _ := base64.StdEncoding.DecodeString(res.Data); res.Type != "image" || res.MIMEType != "image/png" || string(b) != png {
			t.Errorf("%s: %s", c.d, out)
		}
	}
	ws := llmfs.New(mem.New(), nil)
	big := png + strings.Repeat("x", llmfs.DefaultMaxImageBytes)
	if _, err := ws.Write(ctx, "big.png", big, llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	tb, _ := tools.New(ws, tools.Gemini)
	if _, err := tb.Call(ctx, "read_file", json.RawMessage(`{"file_path": "big.png"}`)); llmfs.CodeOf(err) != llmfs.CodeFileTooLarge {
		t.Errorf("an image over the cap: %v", err)
	}
}
