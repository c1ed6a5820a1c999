//go:build !js && !wasip1

package console_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleQuota: the header shows the mode and the quota's use as bars (bytes and
// files used of the quota), and the bars follow an agent's write through MCP.
func TestConsoleQuota(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(strings.Repeat("x", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	url := serve(t, root, "--mode", "read-write", "--quota-bytes", "10K", "--max-files", "20")
	b := startBrowser(t)
	b.run("opening "+url, chromedp.Navigate(url))
	b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)
	var mode string
	b.eval(`document.getElementById("mode").textContent`, &mode)
	if mode != "read-write" {
		t.Errorf("the mode shown is %q, want read-write", mode)
	}
	var bars struct{ Bytes, MaxBytes, Files, MaxFiles float64 }
	read := func() {
		b.eval(`(() => { const b = document.getElementById("bytesbar"), f = document.getElementById("filesbar");
			return {Bytes: b.value, MaxBytes: b.max, Files: f.value, MaxFiles: f.max}; })()`, &bars)
	}
	read()
	if bars.Bytes != 1000 || bars.MaxBytes != 10240 || bars.Files != 1 || bars.MaxFiles != 20 {
		t.Errorf("the bars show %+v, want 1000 of 10240 bytes and 1 of 20 files", bars)
	}
	var usage string
	b.eval(`document.getElementById("usage").innerText`, &usage)
	if !strings.Contains(usage, "1000 bytes / 10.0 KB") || !strings.Contains(usage, "1 / 20") {
		t.Errorf("the usage reads %q", usage)
	}
	b.screenshot("quota")

	// The agent's write through the server's MCP endpoint: the workspace the console shows.
	callTool(t, agent(t, url), "file_write", map[string]any{"path": "b.txt", "content": strings.Repeat("y", 2000)})
	b.wait("the bars after the write", `document.getElementById("bytesbar")?.value === 3000 && document.getElementById("filesbar")?.value === 2`, 10*time.Second)
}
