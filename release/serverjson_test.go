package release_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/registry/pkg/model"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestServerJSONAgainstPublishedSchema validates server.json against the MCP registry's own
// published schema (issue 20, item 3). The schemas ship in the registry's Go module, which
// go.mod pins, so the check needs no network beyond the module proxy and always uses the
// schema the registry itself validates with. server.json must also name the registry's
// current schema version, so a stale $schema is caught when the module is upgraded.
func TestServerJSONAgainstPublishedSchema(t *testing.T) {
	doc, err := os.ReadFile("../server.json")
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Schema string `json:"$schema"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		t.Fatal(err)
	}
	if head.Schema != model.CurrentSchemaURL {
		t.Errorf("server.json $schema = %q, the registry's current one is %q", head.Schema, model.CurrentSchemaURL)
	}
	m := regexp.MustCompile(`/schemas/([A-Za-z0-9_~.-]+)/server\.schema\.json$`).FindStringSubmatch(head.Schema)
	if m == nil {
		t.Fatalf("$schema %q is not a registry schema URL", head.Schema)
	}

	schemaFile := filepath.Join(registryModuleDir(t), "internal", "validators", "schemas", m[1]+".json")
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatalf("the registry module has no schema %s: %v", m[1], err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(head.Schema, schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(head.Schema)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("server.json does not validate against %s:\n%v", head.Schema, err)
	}

	// The validator must be able to fail: a server.json without its required name is refused.
	var broken map[string]any
	if err := json.Unmarshal(doc, &broken); err != nil {
		t.Fatal(err)
	}
	delete(broken, "name")
	if err := sch.Validate(broken); err == nil {
		t.Error("a server.json without name validated; the schema check is not checking")
	}
}

// registryModuleDir is where the Go toolchain keeps the registry module go.mod pins.
func registryModuleDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/modelcontextprotocol/registry").Output()
	if err != nil {
		t.Fatalf("go list the registry module: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Fatal("the registry module is not in the module cache (go mod download)")
	}
	return dir
}
