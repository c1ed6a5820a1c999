//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemas caches each session's resolved output schemas, by tool name.
var schemas sync.Map // *mcp.ClientSession -> map[string]*jsonschema.Resolved

// checkOutput validates a success's structured content against the outputSchema the
// server lists for the tool name.
func checkOutput(t *testing.T, cs *mcp.ClientSession, name string, sc map[string]any) {
	t.Helper()
	v, ok := schemas.Load(cs)
	if !ok {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		m := map[string]*jsonschema.Resolved{}
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatalf("listing tools: %v", err)
			}
			if tool.OutputSchema == nil {
				t.Fatalf("tool %s has no outputSchema", tool.Name)
			}
			m[tool.Name] = resolve(t, tool.Name, tool.OutputSchema)
		}
		v, _ = schemas.LoadOrStore(cs, m)
	}
	rs := v.(map[string]*jsonschema.Resolved)[name]
	if rs == nil {
		return // a tool the mode hides
	}
	if err := rs.Validate(sc); err != nil {
		t.Errorf("%s: structured content %s does not match the outputSchema: %v", name, mustJSON(sc), err)
	}
}

func resolve(t *testing.T, name string, schema any) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(mustJSON(schema)), &s); err != nil {
		t.Fatalf("%s: outputSchema is not a JSON Schema: %v", name, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: outputSchema does not resolve: %v", name, err)
	}
	return rs
}
