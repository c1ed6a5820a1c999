//go:build !js && !wasip1

package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestInteropTypeScript drives llmfs with the official TypeScript SDK
// (testdata/interop/interop.mjs) over stdio and HTTP. It needs node and the SDK installed
// by testdata/interop/install.sh; without them it skips, unless LLMFS_REQUIRE_INTEROP=1.
func TestInteropTypeScript(t *testing.T) {
	node, dir := interopPeers(t)
	stdioDir, httpDir := tempDir(t), tempDir(t)
	s := startServe(t, "--root", httpDir)
	cmd := exec.Command(node, "interop.mjs", llmfsBinary(t), stdioDir, s.url, s.token)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LLMFS_HTTP_ROOT="+httpDir)
	out, err := cmd.CombinedOutput()
	t.Logf("node interop.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("interop failed: %v", err)
	}
}

// TestInteropResourceWrites drives the experimental resource writes and --ask with the
// official TypeScript SDK (testdata/interop/writes.mjs) over stdio (issue 39.3, 39.4).
func TestInteropResourceWrites(t *testing.T) {
	node, dir := interopPeers(t)
	cmd := exec.Command(node, "writes.mjs", llmfsBinary(t), tempDir(t))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	t.Logf("node writes.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("interop failed: %v", err)
	}
}

// interopPeers returns node and the directory of the TypeScript SDK's scripts, or skips
// the test when they are not installed (fails, with LLMFS_REQUIRE_INTEROP=1).
func interopPeers(t *testing.T) (node, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	dir, err := filepath.Abs("testdata/interop")
	if err != nil {
		t.Fatal(err)
	}
	skip := t.Skip
	if os.Getenv("LLMFS_REQUIRE_INTEROP") == "1" {
		skip = t.Fatal // .ci/run installs the peers: here they must run
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		skip("the TypeScript SDK is not installed: run mcpserver/testdata/interop/install.sh (npm ci)")
	}
	if node, err = exec.LookPath("node"); err != nil {
		skip("node is not installed")
	}
	return node, dir
}
