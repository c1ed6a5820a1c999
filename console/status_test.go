package console_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// TestConsoleEditStatus: an edit the file cannot take is the client's mistake, a 4xx with its
// code, never a 500; and the file is unchanged.
func TestConsoleEditStatus(t *testing.T) {
	ws, url := newConsole(t)
	ctx := context.Background()
	if _, err := ws.Write(ctx, "/b.txt", "x\nx\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		body string
		want int
		code string
	}{
		{`{"path":"/a.txt","old":"absent","new":"y"}`, 400, "PATTERN_NOT_FOUND"},
		{`{"path":"/b.txt","old":"x","new":"y"}`, 400, "PATTERN_NOT_UNIQUE"},
		{`{"path":"/none.txt","old":"x","new":"y"}`, 404, "FILE_NOT_FOUND"},
	} {
		code, body := request(t, "POST", url+"/api/edit", "tok", c.body)
		if code != c.want || !strings.Contains(body, c.code) {
			t.Errorf("POST /api/edit %s: %d %s, want %d %s", c.body, code, body, c.want, c.code)
		}
	}
	if code, body := request(t, "POST", url+"/api/move", "tok", `{"from":"/a.txt","to":"/b.txt"}`); code != 409 || !strings.Contains(body, "FILE_ALREADY_EXISTS") {
		t.Errorf("a move onto an existing file: %d %s, want 409", code, body)
	}
	for p, want := range map[string]string{"/a.txt": "one\n", "/b.txt": "x\nx\n"} {
		if r, err := ws.Read(ctx, p, llmfs.ReadOptions{}); err != nil || r.Content != want {
			t.Errorf("%s after refused edits: %q %v, want %q", p, r.Content, err, want)
		}
	}
}
