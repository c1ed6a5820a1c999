package eino_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	llmfseino "github.com/llmfs/llmfs/adapters/eino"
	"github.com/llmfs/llmfs/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The tool list an Eino model component sends: each tool's name, description and the
// JSON Schema Eino derives from its ToolInfo (ToJSONSchema), for the agentool dialect.
func TestGoldenTools(t *testing.T) {
	ctx := context.Background()
	tb, err := tools.New(newWorkspace(t, nil), tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := llmfseino.Tools(tb)
	if err != nil {
		t.Fatal(err)
	}
	type sent struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Parameters  any    `json:"parameters"`
	}
	var all []sent
	for _, tl := range ts {
		info, err := tl.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		js, err := info.ToJSONSchema()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, sent{info.Name, info.Desc, js})
	}
	got, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "tools.json")
	if *update {
		_ = os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the tools differ from %s (go test -update rewrites it):\n%s", path, got)
	}
}
