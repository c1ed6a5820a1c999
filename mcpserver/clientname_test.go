package mcpserver

import (
	"strings"
	"testing"
)

// A client's name goes into the journal's actor as a short, safe token: no '/' (which
// separates it from the session id), no spaces or control characters, at most 32 bytes.
func TestClientName(t *testing.T) {
	for in, want := range map[string]string{
		"claude-code":           "claude-code",
		"Claude Code 1.0/beta":  "Claude-Code-1.0-beta",
		"  \x00\n":              "",
		"":                      "",
		"é":                     "",
		strings.Repeat("a", 50): strings.Repeat("a", 32),
	} {
		if got := clientName(in); got != want {
			t.Errorf("clientName(%q) = %q, want %q", in, got, want)
		}
	}
}
