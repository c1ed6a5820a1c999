package release_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestMCPBManifestValid validates the MCP bundle manifest with the official tool, mcpb
// (installed by release/install.sh), for the manifest as committed and as stamped for each
// bundle (issue 20, item 3).
func TestMCPBManifestValid(t *testing.T) {
	mcpb := "node_modules/.bin/mcpb"
	if _, err := os.Stat(mcpb); err != nil {
		if os.Getenv("LLMFS_REQUIRE_INTEROP") == "1" {
			t.Fatalf("%s is missing (run sh release/install.sh) and LLMFS_REQUIRE_INTEROP=1", mcpb)
		}
		t.Skipf("%s is missing: run sh release/install.sh", mcpb)
	}
	requireTool(t, "node", "mcpb runs under Node.js")
	manifests := []string{"mcpb/manifest.json"}
	for _, os_ := range []string{"darwin", "win32"} {
		out, err := exec.Command("node", "mcpb-manifest.mjs", "1.2.3", os_).Output()
		if err != nil {
			t.Fatalf("mcpb-manifest.mjs %s: %v", os_, err)
		}
		p := t.TempDir() + "/manifest.json"
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		manifests = append(manifests, p)
	}
	for _, m := range manifests {
		out, err := exec.Command(mcpb, "validate", m).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "passes") {
			t.Errorf("mcpb validate %s: %v\n%s", m, err, out)
		}
	}
}

// TestServerJSON checks what the schema cannot (TestServerJSONAgainstPublishedSchema checks
// the schema): server.json and the npm package it names agree, since the registry verifies
// ownership by the package's mcpName, and versions are exact, not ranges.
func TestServerJSON(t *testing.T) {
	type argument struct {
		Type, Name, Value, ValueHint, Format string
	}
	var s struct {
		Schema      string `json:"$schema"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Version     string `json:"version"`
		Repository  struct{ URL, Source string }
		Packages    []struct {
			RegistryType     string `json:"registryType"`
			Identifier       string `json:"identifier"`
			Version          string `json:"version"`
			RuntimeHint      string `json:"runtimeHint"`
			Transport        struct{ Type string }
			PackageArguments []argument `json:"packageArguments"`
		}
	}
	b, err := os.ReadFile("../server.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Schema, "https://static.modelcontextprotocol.io/schemas/") {
		t.Errorf("$schema = %q", s.Schema)
	}
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(s.Name) || len(s.Name) > 200 {
		t.Errorf("name %q does not match the registry's pattern", s.Name)
	}
	if n := len(s.Description); n < 1 || n > 100 {
		t.Errorf("description is %d bytes, want 1 to 100", n)
	}
	isRange := regexp.MustCompile(`^[\^~<>=]|[x*]$|^latest$`)
	if s.Version == "" || isRange.MatchString(s.Version) {
		t.Errorf("version %q: want a specific version", s.Version)
	}
	if s.Repository.URL == "" || s.Repository.Source == "" {
		t.Errorf("repository needs url and source: %+v", s.Repository)
	}
	var npmPkg struct {
		Name, Version, MCPName string
	}
	b, err = os.ReadFile("../npm/llmfs/package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &npmPkg); err != nil {
		t.Fatal(err)
	}
	if len(s.Packages) != 1 {
		t.Fatalf("%d packages, want the npm one", len(s.Packages))
	}
	p := s.Packages[0]
	if p.RegistryType != "npm" || p.Identifier != npmPkg.Name || p.Transport.Type != "stdio" || p.RuntimeHint != "npx" {
		t.Errorf("package %+v: want npm %q over stdio with runtimeHint npx", p, npmPkg.Name)
	}
	if p.Version == "" || isRange.MatchString(p.Version) || p.Version != s.Version {
		t.Errorf("package version %q: want the server's version %q", p.Version, s.Version)
	}
	if npmPkg.MCPName != s.Name {
		t.Errorf("npm/llmfs/package.json mcpName = %q, want %q", npmPkg.MCPName, s.Name)
	}
	for _, a := range p.PackageArguments {
		switch {
		case a.Type == "positional" && a.Value == "" && a.ValueHint == "":
			t.Errorf("positional argument %+v needs value or valueHint", a)
		case a.Type == "named" && a.Name == "":
			t.Errorf("named argument %+v needs a name", a)
		case a.Type != "positional" && a.Type != "named":
			t.Errorf("argument %+v: type must be positional or named", a)
		case a.Format != "" && !strings.Contains(" string number boolean filepath ", " "+a.Format+" "):
			t.Errorf("argument %+v: bad format", a)
		}
	}
}
