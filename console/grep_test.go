package console_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/store/mem"
)

// TestConsoleGrepVirtualPaths: grep's hits name the file as the tree does on a virtual
// workspace (root "/": memory, SQL, the browser's IndexedDB).
// Issue 16.3: the in-browser console's grep showed "treamed.txt" for streamed.txt, the
// hit's root-relative path passed through Paths.Rel again.
func TestConsoleGrepVirtualPaths(t *testing.T) {
	_, url := newConsole(t)
	code, body := request(t, "GET", url+"/api/grep?pattern=one", "tok", "")
	if code != 200 || !strings.Contains(body, `"path":"a.txt"`) {
		t.Errorf("GET /api/grep?pattern=one: %d %s", code, body)
	}
}

// TestConsoleGrepMatchSpans: each hit says where its matches are, in the UTF-16 units of
// a JavaScript string, for the page to mark them (issue 33 item 11).
func TestConsoleGrepMatchSpans(t *testing.T) {
	ws := llmfs.New(mem.New(), nil)
	if _, err := ws.Write(context.Background(), "u.txt", "é😀 two two\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(console.Handler(ws, console.Options{Token: "tok"}))
	defer srv.Close()
	code, body := request(t, "GET", srv.URL+"/api/grep?pattern=TWO&i=1", "tok", "")
	if want := `"matches":[[4,7],[8,11]]`; code != 200 || !strings.Contains(body, want) {
		t.Errorf("GET /api/grep: %d %s, want %s", code, body, want)
	}
}
