//go:build !js && !wasip1

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 13.10: every text a person or a program reads from the CLI is JSON without HTML
// escapes, as the tools' results are: `a < b && c > d` must not arrive as \u003c \u0026.
func TestCLIJSONNotHTMLEscaped(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a<b&c>.go"), []byte("if a < b && c > d {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"grep", "--root", dir, "--json", "a < b"},
		{"call", "--root", dir, "file_read", `{"path": "missing<&>.txt"}`},
		{"tools"},
	} {
		_, stdout, stderr := runCLI(t, args...)
		out := stdout + stderr
		if out == "" {
			t.Errorf("%v printed nothing", args)
		}
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
			if strings.Contains(out, esc) {
				t.Errorf("%v printed %s:\n%s", args, esc, out)
			}
		}
	}
}
