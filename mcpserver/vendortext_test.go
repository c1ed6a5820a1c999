//go:build !js && !wasip1

package mcpserver_test

import (
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

// Issue 32.11: over MCP, the text content of a codex, anthropic or gemini tool is what
// the vendor's tool prints, and the result object is the structured content.
func TestVendorTextContent(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	for _, c := range []struct {
		d          tools.Dialect
		tool, args string
		text       string
	}{
		{tools.Codex, "read_file", `{"file_path":"a.txt"}`, "L1: one\nL2: two\n"},
		{tools.Anthropic, "str_replace_based_edit_tool", `{"command":"view","path":"/a.txt"}`, "     1\tone\n     2\ttwo\n"},
		{tools.Gemini, "read_file", `{"file_path":"a.txt"}`, "one\ntwo\n"},
	} {
		dir := tempDir(t)
		writeFile(t, filepath.Join(dir, "a.txt"), "one\ntwo\n")
		srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{Dialect: c.d})
		if err != nil {
			t.Fatal(err)
		}
		cs := connectInMemory(t, srv, nil)
		res := call(t, cs, c.tool, c.args)
		if res.IsError || text(res) != c.text {
			t.Errorf("%s %s: text %q, want %q", c.d, c.tool, text(res), c.text)
		}
		if sc := structured(t, res); sc["total_lines"] != float64(2) {
			t.Errorf("%s %s: structured content %v", c.d, c.tool, sc)
		}
	}
}
