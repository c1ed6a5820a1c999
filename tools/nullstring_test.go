//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// TestCall_NullStringRefused: null for a string parameter, required or optional, is
// INVALID_ARGUMENT in every tool of every dialect, and changes nothing. An optional one is
// not taken as absent: directory_list {"path": null} must not list the root (issue 31,
// item 15).
func TestCall_NullStringRefused(t *testing.T) {
	for _, d := range tools.Dialects {
		tb, dir := newToolbox(t, d)
		before := snapshot(t, dir)
		for _, def := range tb.Definitions() {
			var s struct {
				Properties map[string]struct {
					Type string   `json:"type"`
					Enum []string `json:"enum"`
				} `json:"properties"`
				Required []string `json:"required"`
			}
			if err := json.Unmarshal(def.InputSchema, &s); err != nil {
				t.Fatal(err)
			}
			for name, prop := range s.Properties {
				if prop.Type != "string" {
					continue
				}
				args := map[string]any{name: nil}
				for _, r := range s.Required { // the others valid, so the null is what fails
					if r == name {
						continue
					}
					switch p := s.Properties[r]; {
					case len(p.Enum) > 0:
						args[r] = p.Enum[0]
					case p.Type == "string":
						args[r] = "a.txt"
					case p.Type == "integer":
						args[r] = 1
					case p.Type == "boolean":
						args[r] = false
					}
				}
				raw, _ := json.Marshal(args)
				out, err := tb.Call(context.Background(), def.Name, raw)
				if err == nil {
					t.Errorf("%s %s %s = %.80s, want INVALID_ARGUMENT naming %q", d, def.Name, raw, out, name)
					continue
				}
				if got := tools.ErrorOf(err); got.Code != string(llmfs.CodeInvalidArgument) || !strings.Contains(got.Message, `"`+name+`"`) {
					t.Errorf("%s %s %s: %+v, want INVALID_ARGUMENT naming %q", d, def.Name, raw, got, name)
				}
			}
		}
		if after := snapshot(t, dir); !equalMaps(before, after) {
			t.Errorf("%s: null arguments changed the workspace:\nbefore %v\nafter  %v", d, before, after)
		}
	}
}
