//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/tools"
)

// Issue 13.13: reading past the end says so, in both dialects.
func TestReadPastTheEndSaysSoInEachDialect(t *testing.T) {
	const note = "offset 500 is past the end; the file has 3 lines"
	tb, _ := newToolbox(t, tools.Agentool)
	out, err := tb.Call(context.Background(), "file_read", json.RawMessage(`{"path":"a.txt","offset":500}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"content":"","note":"` + note + `","total_lines":3}`; string(out) != want {
		t.Errorf("agentool file_read past the end = %s, want %s", out, want)
	}
	tb, _ = newToolbox(t, tools.RTC)
	out, err = tb.Call(context.Background(), "read", json.RawMessage(`{"path":"/a.txt","offset":500}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "offset 500 is past the end") {
		t.Errorf("rtc read past the end = %s, want a note that says so", out)
	}
}
