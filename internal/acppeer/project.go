//go:build !js && !wasip1

package acppeer

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Project is a project directory for the agent, with a directory outside it.
type Project struct {
	Base, Root, Outside, Result string
}

// NewProject makes a project with a.txt, b.txt and a link-out symbolic link to the secret
// file outside it.
func NewProject(t *testing.T) *Project {
	t.Helper()
	base := t.TempDir()
	p := &Project{Base: base, Root: filepath.Join(base, "proj"), Outside: filepath.Join(base, "outside"), Result: filepath.Join(base, "result.json")}
	WriteFiles(t, p.Root, map[string]string{
		"a.txt": "one\ntwo\nthree\nfour\n",
		"b.txt": "bee\n",
	})
	WriteFiles(t, p.Outside, map[string]string{"secret.txt": "top secret\n"})
	if err := os.Symlink(p.Secret(), filepath.Join(p.Root, "link-out")); err != nil {
		t.Fatal(err)
	}
	return p
}

// Secret is the file outside the project.
func (p *Project) Secret() string { return filepath.Join(p.Outside, "secret.txt") }

// Env is the environment that makes the test binary the agent for this project.
func (p *Project) Env() []string {
	return append(os.Environ(), EnvVar+"=agent", "LLMFS_ACP_RESULT="+p.Result, "LLMFS_ACP_OUTSIDE="+p.Secret())
}

// Results returns what the agent observed, by name.
func (p *Project) Results(t *testing.T) map[string]Result {
	t.Helper()
	b, err := os.ReadFile(p.Result)
	if err != nil {
		t.Fatalf("the agent left no results: %v", err)
	}
	var list []Result
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	m := map[string]Result{}
	for _, r := range list {
		m[r.Name] = r
	}
	return m
}

// File returns the content of rel in the project.
func (p *Project) File(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p.Root, rel))
	if err != nil {
		t.Errorf("reading %s: %v", rel, err)
	}
	return string(b)
}

// WriteFiles writes files (relative name to content) under dir.
func WriteFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// CheckResults compares the agent's observations with want, where a want with a Code or
// FSCode expects that error and otherwise the content.
func CheckResults(t *testing.T, got map[string]Result, want []Result) {
	t.Helper()
	for _, w := range want {
		g, ok := got[w.Name]
		switch {
		case !ok:
			t.Errorf("%s: no result", w.Name)
		case g.Code != w.Code || g.FSCode != w.FSCode || g.Content != w.Content:
			t.Errorf("%s: got %+v\nwant %+v", w.Name, g, w)
		case w.Message != "" && g.Message != w.Message:
			t.Errorf("%s: message %q, want %q", w.Name, g.Message, w.Message)
		case w.URI != "" && g.URI != w.URI:
			t.Errorf("%s: uri %q, want %q", w.Name, g.URI, w.URI)
		}
	}
}

// Interop returns the node binary and the directory of the TypeScript peers of the
// interop tests against the official ACP TypeScript SDK (acp/testdata/interop). Without
// node or the SDK installed by its install.sh the test skips, unless
// LLMFS_REQUIRE_INTEROP=1.
func Interop(t *testing.T) (node, dir string) {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("LLMFS_REQUIRE_INTEROP") == "1" {
		skip = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("ACP interop: node is not installed (Debian: apt-get install nodejs npm)")
	}
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("ACP interop: no source path")
	}
	dir = filepath.Join(filepath.Dir(here), "..", "..", "acp", "testdata", "interop")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil {
		skip("ACP interop: the TypeScript SDK is not installed; run acp/testdata/interop/install.sh")
	}
	return node, dir
}
