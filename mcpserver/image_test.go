//go:build !js && !wasip1

package mcpserver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

// Issue 17.6: over MCP, every dialect's read of an image returns it as image content
// (type "image", base64 data, mimeType) beside a text block, with structured content that
// matches the outputSchema and leaves the base64 out; an image over the cap is an isError
// FILE_TOO_LARGE; read_many_files sends one image block per image.
func TestMCPReadImage(t *testing.T) {
	dir := tempDir(t)
	images := map[string]string{"pixel.png": "image/png", "pixel.jpg": "image/jpeg", "pixel.gif": "image/gif", "pixel.webp": "image/webp"}
	for name := range images {
		b, err := os.ReadFile(filepath.Join("../tools/testdata/images", name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, name), string(b))
	}
	png, _ := os.ReadFile(filepath.Join(dir, "pixel.png"))
	writeFile(t, filepath.Join(dir, "screenshot"), string(png)) // no extension: told by content
	images["screenshot"] = "image/png"
	writeFile(t, filepath.Join(dir, "big.gif"), "GIF89a"+string(bytes.Repeat([]byte{0}, llmfs.DefaultMaxImageBytes)))

	reads := []struct {
		d    tools.Dialect
		tool string
		args func(string) string
	}{
		{tools.Agentool, "file_read", func(n string) string { return `{"path":"` + n + `"}` }},
		{tools.RTC, "read", func(n string) string { return `{"path":"/` + n + `"}` }},
		{tools.Codex, "read_file", func(n string) string { return `{"file_path":"` + n + `"}` }},
		{tools.Anthropic, "str_replace_based_edit_tool", func(n string) string { return `{"command":"view","path":"/` + n + `"}` }},
		{tools.Gemini, "read_file", func(n string) string { return `{"file_path":"` + n + `"}` }},
		{tools.Gemini, "read_many_files", func(n string) string { return `{"include":["` + n + `"]}` }},
	}
	for _, r := range reads {
		srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{Dialect: r.d})
		if err != nil {
			t.Fatal(err)
		}
		cs := connectInMemory(t, srv, nil)
		for name, mime := range images {
			want, _ := os.ReadFile(filepath.Join(dir, name))
			res := call(t, cs, r.tool, r.args(name))
			if res.IsError || len(res.Content) != 2 {
				t.Fatalf("%s %s %s: %d blocks, isError %v: %v", r.d, r.tool, name, len(res.Content), res.IsError, res.Content)
			}
			if _, ok := res.Content[0].(*mcp.TextContent); !ok {
				t.Errorf("%s %s: first block %T, want text", r.d, name, res.Content[0])
			}
			img, ok := res.Content[1].(*mcp.ImageContent)
			if !ok || img.MIMEType != mime || !bytes.Equal(img.Data, want) {
				t.Errorf("%s %s %s: second block %T %+v, want a %s image of the file's %d bytes", r.d, r.tool, name, res.Content[1], res.Content[1], mime, len(want))
			}
			sc := structured(t, res)
			checkOutput(t, cs, r.tool, sc)
			if bytes.Contains([]byte(mustJSON(sc)), []byte(`"data"`)) {
				t.Errorf("%s %s: structured content %s holds the base64", r.d, name, mustJSON(sc))
			}
		}
		if r.tool == "read_many_files" {
			res := call(t, cs, r.tool, `{"include":["pixel.png","pixel.webp","big.gif"]}`)
			var kinds []string
			for _, c := range res.Content {
				switch c := c.(type) {
				case *mcp.TextContent:
					kinds = append(kinds, "text")
				case *mcp.ImageContent:
					kinds = append(kinds, c.MIMEType)
				}
			}
			if mustJSON(kinds) != `["text","image/png","image/webp"]` {
				t.Errorf("read_many_files of two images and one too big: blocks %v", kinds)
			}
			continue
		}
		fails(t, cs, r.tool, r.args("big.gif"), "FILE_TOO_LARGE")
	}
}
