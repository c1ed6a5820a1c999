//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

func TestDefinitions_SchemasAreClosedObjects(t *testing.T) {
	for _, d := range tools.Dialects {
		defs, err := tools.Definitions(d, llmfs.Full)
		if err != nil {
			t.Fatal(err)
		}
		if len(defs) == 0 {
			t.Fatalf("Definitions(%s) is empty", d)
		}
		for _, def := range defs {
			var s struct {
				Type                 string                    `json:"type"`
				Properties           map[string]map[string]any `json:"properties"`
				Required             []string                  `json:"required"`
				AdditionalProperties *bool                     `json:"additionalProperties"`
			}
			if err := json.Unmarshal(def.InputSchema, &s); err != nil {
				t.Fatalf("%s/%s: schema is not JSON: %v", d, def.Name, err)
			}
			if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
				t.Errorf("%s/%s: schema must be a closed object, got type %q additionalProperties %v", d, def.Name, s.Type, s.AdditionalProperties)
			}
			for _, r := range s.Required {
				if _, ok := s.Properties[r]; !ok {
					t.Errorf("%s/%s: required %q is not a property", d, def.Name, r)
				}
			}
			for name, p := range s.Properties {
				if p["description"] == "" || p["type"] == nil {
					t.Errorf("%s/%s: property %q lacks a type or description", d, def.Name, name)
				}
			}
			if def.Description == "" || def.ReadOnly && def.Destructive {
				t.Errorf("%s/%s: bad description or hints: %+v", d, def.Name, def)
			}
		}
	}
}

func TestDefinitions_AgentoolHasTheSeedTools(t *testing.T) {
	defs, err := tools.Definitions(tools.Agentool, llmfs.Full)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	for _, want := range []string{"file_read", "file_write", "file_edit", "directory_create", "directory_list", "file_delete", "file_move", "file_copy"} {
		if !slices.Contains(names, want) {
			t.Errorf("agentool lacks %s (has %v)", want, names)
		}
	}
}

func TestDefinitions_ModeFilters(t *testing.T) {
	type test struct {
		mode    llmfs.Mode
		present []string
		absent  []string
	}
	tests := []test{
		{llmfs.ReadOnly, []string{"file_read", "directory_list"}, []string{"file_write", "file_edit", "directory_create", "file_move", "file_copy", "file_delete"}},
		{llmfs.ReadWrite, []string{"file_read", "file_write", "file_edit", "file_move", "file_copy", "directory_create"}, []string{"file_delete"}},
		{llmfs.Full, []string{"file_delete"}, nil},
	}
	for _, tt := range tests {
		defs, err := tools.Definitions(tools.Agentool, tt.mode)
		if err != nil {
			t.Fatal(err)
		}
		has := map[string]bool{}
		for _, d := range defs {
			has[d.Name] = true
		}
		for _, n := range tt.present {
			if !has[n] {
				t.Errorf("mode %s: %s missing", tt.mode, n)
			}
		}
		for _, n := range tt.absent {
			if has[n] {
				t.Errorf("mode %s: %s offered but not allowed", tt.mode, n)
			}
		}
	}
}

func TestDefinitions_UnknownDialect(t *testing.T) {
	if _, err := tools.Definitions("nope", llmfs.Full); llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
		t.Fatalf("Definitions(nope) error = %v, want INVALID_ARGUMENT", err)
	}
}

// Issue 13.15: file_find's path said "(or, for grep, file)", agentool's file_read said
// "exactly" though long lines are cut, and directory_list required a path where rtc's ls
// defaults to the root. The descriptions are exact, and both listings default to the root.
func TestToolDescriptionsExact(t *testing.T) {
	dir := t.TempDir()
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	props := func(d tools.Dialect, name string) (tools.Definition, map[string]map[string]any, []string) {
		defs, _ := tools.Definitions(d, llmfs.Full)
		i := slices.IndexFunc(defs, func(e tools.Definition) bool { return e.Name == name })
		if i < 0 {
			t.Fatalf("no %s in %s", name, d)
		}
		var s struct {
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		}
		json.Unmarshal(defs[i].InputSchema, &s)
		return defs[i], s.Properties, s.Required
	}
	if _, p, _ := props(tools.Agentool, "file_find"); strings.Contains(p["path"]["description"].(string), "grep") {
		t.Errorf("file_find path: %q", p["path"]["description"])
	}
	if _, p, _ := props(tools.Agentool, "file_grep"); !strings.Contains(p["path"]["description"].(string), "File or directory") {
		t.Errorf("file_grep path: %q", p["path"]["description"])
	}
	if d, _, _ := props(tools.Agentool, "file_read"); strings.Contains(d.Description, "exactly") || !strings.Contains(d.Description, "cut") {
		t.Errorf("file_read: %q", d.Description)
	}
	for _, c := range []struct {
		d    tools.Dialect
		name string
	}{{tools.Agentool, "directory_list"}, {tools.RTC, "ls"}} {
		if _, _, req := props(c.d, c.name); len(req) != 0 {
			t.Errorf("%s requires %v", c.name, req)
		}
		tb, _ := tools.New(ws, c.d)
		if _, err := tb.Call(context.Background(), c.name, []byte(`{}`)); err != nil {
			t.Errorf("%s without a path: %v", c.name, err)
		}
	}
}
