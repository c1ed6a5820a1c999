package console_test

import (
	"strings"
	"testing"
)

// TestConsoleGrepVirtualPaths: grep's hits name the file as the tree does on a virtual
// workspace (root "/": memory, SQL, the browser's IndexedDB).
// Issue 16.3: the in-browser console's grep showed "treamed.txt" for streamed.txt, the
// hit's root-relative path passed through Workspace.Rel again.
func TestConsoleGrepVirtualPaths(t *testing.T) {
	_, url := newConsole(t)
	code, body := request(t, "GET", url+"/api/grep?pattern=one", "tok", "")
	if code != 200 || !strings.Contains(body, `"path":"a.txt"`) {
		t.Errorf("GET /api/grep?pattern=one: %d %s", code, body)
	}
}
