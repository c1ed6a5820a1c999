//go:build !js && !wasip1

package release_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/llmfs/llmfs/internal/browsertest"
)

// The pages that give install lines and client configurations.
var installPages = []string{"../README.md", "../docs/install.md", "../docs/mcp.md"}

func readPage(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var fenceRE = regexp.MustCompile("(?s)```(sh|json|toml)\n(.*?)```")

// fenced returns the code blocks of a page in the given language.
func fenced(page, lang string) []string {
	var out []string
	for _, m := range fenceRE.FindAllStringSubmatch(page, -1) {
		if m[1] == lang {
			out = append(out, m[2])
		}
	}
	return out
}

// shLines returns the lines of the sh blocks of a page that start with prefix, comments cut.
func shLines(page, prefix string) []string {
	var out []string
	for _, block := range fenced(page, "sh") {
		for _, line := range strings.Split(block, "\n") {
			line, _, _ = strings.Cut(line, "#")
			if line = strings.TrimSpace(line); strings.HasPrefix(line, prefix) {
				out = append(out, line)
			}
		}
	}
	return out
}

var (
	installOnce sync.Once
	installBin  string
	installErr  error
)

// installedBinary runs the install line the README gives, `go install ./cmd/llmfs`, with
// GOBIN a temporary directory, and returns the binary it made.
func installedBinary(t *testing.T) string {
	t.Helper()
	lines := shLines(readPage(t, "../README.md"), "go install")
	if len(lines) != 1 {
		t.Fatalf("README.md gives %d go install lines (%q), want one", len(lines), lines)
	}
	installOnce.Do(func() {
		gobin, err := os.MkdirTemp("", "llmfs-gobin-")
		if err != nil {
			installErr = err
			return
		}
		words := strings.Fields(lines[0])
		cmd := exec.Command(words[0], words[1:]...)
		cmd.Dir = ".." // the clone's root, where the README is
		cmd.Env = append(os.Environ(), "GOBIN="+gobin)
		if out, err := cmd.CombinedOutput(); err != nil {
			installErr = &buildError{err, string(out)}
			return
		}
		installBin = filepath.Join(gobin, "llmfs")
		if runtime.GOOS == "windows" {
			installBin += ".exe"
		}
	})
	if installErr != nil {
		t.Fatal(installErr)
	}
	return installBin
}

// Issue 33, item 1: the README's first install line was `npx -y llmfs`, and `go install
// github.com/llmfs/llmfs/cmd/llmfs@latest`, neither of which resolves before a release.
// Every go install line the README and docs/install.md give must work from a clone, with
// no network beyond the Go module proxy: it builds from the local tree, and runs.
func TestInstallLinesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs cmd/llmfs: not in -short mode")
	}
	for _, page := range installPages {
		for _, line := range shLines(readPage(t, page), "go install") {
			if !strings.Contains(line, "./cmd/llmfs") || strings.Contains(line, "@") {
				t.Errorf("%s: %q installs from the network; before a release only a clone's ./cmd/llmfs builds", page, line)
			}
		}
		// npx -y fetches from the npm registry; `npx llmfs` after installing the tarballs
		// (TestNPMInstallFromTarballs) is the route that works before publishing.
		for _, line := range shLines(readPage(t, page), "npx -y") {
			t.Errorf("%s: %q needs the npm packages published; only the tarball route may be shown", page, line)
		}
	}
	bin := installedBinary(t)
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "llmfs ") {
		t.Errorf("%s --version: %q, %v", bin, out, err)
	}
}

// The README's main-job command, `go run ./cmd/llmfs serve`, run with the installed
// binary: it serves the current directory and prints the console's URL, which answers.
func TestREADMEServeCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs cmd/llmfs: not in -short mode")
	}
	lines := shLines(readPage(t, "../README.md"), "go run ./cmd/llmfs serve")
	if len(lines) != 1 {
		t.Fatalf("README.md gives %d serve commands (%q), want one", len(lines), lines)
	}
	args := strings.Fields(strings.TrimPrefix(lines[0], "go run ./cmd/llmfs"))
	// Port 0: the default, 7700, may be taken on the machine running the tests.
	cmd := exec.Command(installedBinary(t), append(args, "--addr", "127.0.0.1:0")...)
	cmd.Dir = t.TempDir()
	url := browsertest.StartURL(t, cmd, regexp.MustCompile(`console at (http://\S+)`))
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s", url, resp.Status)
	}
}

// serverEntry is one MCP server in a client's configuration.
type serverEntry struct {
	Type    string            `json:"type" toml:"type"`
	Command string            `json:"command" toml:"command"`
	Args    []string          `json:"args" toml:"args"`
	URL     string            `json:"url" toml:"url"`
	Headers map[string]string `json:"headers" toml:"headers"`
}

// parseConfig returns the llmfs stdio server a client configuration declares, or
// os.ErrNotExist if it declares none.
func parseConfig(lang, text string) (serverEntry, error) {
	var cfg struct {
		MCPServers map[string]serverEntry `json:"mcpServers"`
		Servers    map[string]serverEntry `json:"servers"`     // VS Code
		Codex      map[string]serverEntry `toml:"mcp_servers"` // Codex
	}
	var err error
	if lang == "toml" {
		_, err = toml.Decode(text, &cfg)
	} else {
		// A JSON snippet that is no client configuration (an example of a result, say)
		// declares no server; a configuration is read strictly.
		var top map[string]json.RawMessage
		if json.Unmarshal([]byte(text), &top) == nil && top["mcpServers"] == nil && top["servers"] == nil {
			return serverEntry{}, os.ErrNotExist
		}
		dec := json.NewDecoder(strings.NewReader(text))
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

var clientRE = regexp.MustCompile("(?s)\\*\\*([^*]+)\\*\\*:[^\n]*\n\n```(?:json|toml)\n")

// TestClientConfigs parses each client configuration of the README, docs/install.md and
// docs/mcp.md and starts its command, `llmfs mcp --root DIR` with the binary the README's
// install line made, through a real MCP client (issue 20, item 4; issue 33, item 1).
func TestClientConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs cmd/llmfs: not in -short mode")
	}
	var clients []string
	for _, m := range clientRE.FindAllStringSubmatch(readPage(t, "../docs/install.md"), -1) {
		clients = append(clients, m[1])
	}
	for _, want := range []string{"Claude Desktop", "Claude Code", "VS Code", "Cursor", "Codex", "Gemini CLI"} {
		if !slices.Contains(clients, want) {
			t.Errorf("docs/install.md gives no configuration for %s (found %q)", want, clients)
		}
	}
	n := 0
	for _, page := range installPages {
		text := readPage(t, page)
		for _, lang := range []string{"json", "toml"} {
			for _, block := range fenced(text, lang) {
				e, err := parseConfig(lang, block)
				if err == os.ErrNotExist {
					continue
				}
				n++
				name := fmt.Sprintf("%s_%d", filepath.Base(page), n)
				t.Run(name, func(t *testing.T) {
					if err != nil {
						t.Fatalf("parsing the %s snippet: %v\n%s", lang, err, block)
					}
					if e.Type != "" && e.Type != "stdio" {
						t.Fatalf("type = %q, want stdio", e.Type)
					}
					i := slices.Index(e.Args, "--root")
					if e.Command != "llmfs" || len(e.Args) < 1 || e.Args[0] != "mcp" || i < 0 || i+1 >= len(e.Args) {
						t.Fatalf("command %q %q, want llmfs mcp --root DIR", e.Command, e.Args)
					}
					root := t.TempDir()
					args := slices.Clone(e.Args)
					args[i+1] = root
					checkServer(t, exec.Command(installedBinary(t), args...), root)
				})
			}
		}
	}
	if n < 8 {
		t.Errorf("found %d client configurations, want the README's, docs/install.md's six and docs/mcp.md's", n)
	}
}
