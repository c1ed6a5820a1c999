package release_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// serverEntry is one MCP server in a client's configuration.
type serverEntry struct {
	Type    string   `json:"type" toml:"type"`
	Command string   `json:"command" toml:"command"`
	Args    []string `json:"args" toml:"args"`
}

// snippet is a fenced code block of the README's "Connect a client" section, with the
// bold client name that introduces it.
type snippet struct {
	client, lang, text string
}

var snippetRE = regexp.MustCompile("(?s)\\*\\*([^*]+)\\*\\*:[^\n]*\n\n```(json|toml)\n(.*?)```")

func readmeSnippets(t *testing.T) []snippet {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "\n## Connect a client\n")
	if start < 0 {
		t.Fatal("README.md has no section 'Connect a client'")
	}
	s = s[start+1:]
	if end := strings.Index(s[3:], "\n## "); end >= 0 {
		s = s[:end+3]
	}
	var out []snippet
	for _, m := range snippetRE.FindAllStringSubmatch(s, -1) {
		out = append(out, snippet{client: m[1], lang: m[2], text: m[3]})
	}
	return out
}

// parseSnippet returns the llmfs server a client configuration declares.
func parseSnippet(sn snippet) (serverEntry, error) {
	var cfg struct {
		MCPServers map[string]serverEntry `json:"mcpServers"`
		Servers    map[string]serverEntry `json:"servers"`     // VS Code
		Codex      map[string]serverEntry `toml:"mcp_servers"` // Codex
	}
	var err error
	if sn.lang == "toml" {
		_, err = toml.Decode(sn.text, &cfg)
	} else {
		dec := json.NewDecoder(strings.NewReader(sn.text))
		dec.DisallowUnknownFields()
		err = dec.Decode(&cfg)
	}
	if err != nil {
		return serverEntry{}, err
	}
	for _, m := range []map[string]serverEntry{cfg.MCPServers, cfg.Servers, cfg.Codex} {
		if e, ok := m["llmfs"]; ok {
			return e, nil
		}
	}
	return serverEntry{}, os.ErrNotExist
}

// TestREADMEClientConfigs parses each client configuration in the README and starts its
// command, with the freshly built binary in place of `npx -y llmfs`, through a real MCP
// client (issue 20, item 4).
func TestREADMEClientConfigs(t *testing.T) {
	snippets := readmeSnippets(t)
	var clients []string
	for _, sn := range snippets {
		clients = append(clients, sn.client)
	}
	for _, want := range []string{"Claude Desktop", "Claude Code", "VS Code", "Cursor", "Codex", "Gemini CLI"} {
		if !slices.Contains(clients, want) {
			t.Errorf("README.md gives no configuration for %s (found %q)", want, clients)
		}
	}
	bin := llmfsBinary(t)
	for _, sn := range snippets {
		t.Run(strings.ReplaceAll(sn.client, " ", "_"), func(t *testing.T) {
			e, err := parseSnippet(sn)
			if err != nil {
				t.Fatalf("parsing the %s snippet: %v\n%s", sn.lang, err, sn.text)
			}
			if e.Type != "" && e.Type != "stdio" {
				t.Errorf("type = %q, want stdio", e.Type)
			}
			want := []string{"-y", "llmfs", "mcp", "--root", "/path/to/project"}
			if e.Command != "npx" || !slices.Equal(e.Args, want) {
				t.Fatalf("command %q %q, want npx %q", e.Command, e.Args, want)
			}
			root := t.TempDir()
			args := slices.Clone(e.Args[2:]) // after "-y llmfs": what the binary gets
			args[slices.Index(args, "/path/to/project")] = root
			checkServer(t, exec.Command(bin, args...), root)
		})
	}
}
