package release_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// releaseVersion is the version the tests give release/build.sh.
const releaseVersion = "0.1.0"

var (
	distOnce sync.Once
	distDir  string
	distErr  error
)

// releaseDist runs `release/build.sh -v 0.1.0` once for this machine's platform and
// returns its output directory. The script packs the npm packages, so it needs Node.js.
func releaseDist(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs release/build.sh: not in -short mode")
	}
	requireTool(t, "npm", "release/build.sh packs the npm packages")
	requireTool(t, "node", "release/build.sh writes the npm packages with Node.js")
	distOnce.Do(func() {
		distDir, distErr = os.MkdirTemp("", "llmfs-release-dist-")
		if distErr != nil {
			return
		}
		build := exec.Command("bash", "build.sh", "-v", releaseVersion, "-o", distDir, runtime.GOOS+"/"+runtime.GOARCH)
		if out, err := build.CombinedOutput(); err != nil {
			distErr = &buildError{err, string(out)}
		}
	})
	if distErr != nil {
		t.Fatal(distErr)
	}
	return distDir
}

// releaseBinary is the binary release/build.sh made for this platform.
func releaseBinary(t *testing.T) string {
	bin := filepath.Join(releaseDist(t), "llmfs-"+runtime.GOOS+"-"+runtime.GOARCH)
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	return bin
}

// Issue 33, item 3: `release/build.sh -v 0.1.0` built binaries whose --version said
// "llmfs devel", whose MCP serverInfo.version said "devel" and whose ACP clientInfo had no
// version. All three must say the release's version.
func TestReleaseVersion(t *testing.T) {
	bin := releaseBinary(t)

	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("llmfs --version: %v", err)
	}
	if got := strings.Fields(string(out)); len(got) < 2 || strings.TrimSuffix(got[1], ",") != releaseVersion {
		t.Errorf("llmfs --version = %q, want llmfs %s", out, releaseVersion)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "release-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--root", t.TempDir())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo; got.Version != releaseVersion {
		t.Errorf("MCP serverInfo = %+v, want version %s", got, releaseVersion)
	}
	cs.Close()

	// An ACP "agent" that keeps the initialize request it receives and exits: llmfs acp
	// then fails, which is not what is tested here.
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the ACP agent stand-in")
	}
	saved := filepath.Join(t.TempDir(), "initialize.json")
	acp := exec.CommandContext(ctx, bin, "acp", "--root", t.TempDir(), "--prompt", "hi", "--",
		"sh", "-c", `read -r line; printf '%s\n' "$line" >"$0"`, saved)
	acp.Run()
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatalf("the agent got no initialize: %v", err)
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			ClientInfo struct{ Name, Version string } `json:"clientInfo"`
		} `json:"params"`
	}
	if err := json.Unmarshal(b, &req); err != nil || req.Method != "initialize" {
		t.Fatalf("the agent's first message: %s (%v)", b, err)
	}
	if got := req.Params.ClientInfo; got.Name != "llmfs" || got.Version != releaseVersion {
		t.Errorf("ACP clientInfo = %+v, want llmfs %s", got, releaseVersion)
	}
}
