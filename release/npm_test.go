package release_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestNPMInstallFromTarballs installs the npm packages as a user would, from the tarballs
// release/build.sh packs, into an empty folder, and runs `npx llmfs mcp --root DIR` through
// a real MCP client (issue 20, item 3).
func TestNPMInstallFromTarballs(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("packs the linux-x64 package; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	npm := requireTool(t, "npm", "the npm install test packs and installs the npm packages")
	npx := requireTool(t, "npx", "the npm install test runs npx llmfs")
	requireTool(t, "node", "the npm launcher runs under Node.js")
	const version = releaseVersion
	dist := releaseDist(t)
	tarballs := []string{
		filepath.Join(dist, "npm", "llmfs-"+version+".tgz"),
		filepath.Join(dist, "npm", "llmfs-cli-linux-x64-"+version+".tgz"),
	}
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"llmfs-linux-amd64", "npm/llmfs-" + version + ".tgz", "npm/llmfs-cli-linux-x64-" + version + ".tgz"} {
		if !strings.Contains(string(sums), "  "+want+"\n") {
			t.Errorf("SHA256SUMS lacks %s:\n%s", want, sums)
		}
	}

	app := t.TempDir()
	install := exec.Command(npm, append([]string{"install", "--no-audit", "--no-fund", "--loglevel=error"}, tarballs...)...)
	install.Dir = app
	install.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	var pkg struct {
		Version string `json:"version"`
		MCPName string `json:"mcpName"`
	}
	b, err := os.ReadFile(filepath.Join(app, "node_modules", "llmfs", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != version {
		t.Errorf("installed llmfs package.json: version %q, err %v", pkg.Version, err)
	}
	for _, dir := range []string{"llmfs", filepath.Join("@llmfs", "cli-linux-x64")} {
		if _, err := os.Stat(filepath.Join(app, "node_modules", dir, "LICENSE")); err != nil {
			t.Errorf("the installed package %s carries no LICENSE: %v", dir, err)
		}
	}

	root := t.TempDir()
	cmd := exec.Command(npx, "llmfs", "mcp", "--root", root)
	cmd.Dir = app
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	checkServer(t, cmd, root)
}
