//go:build !js && !wasip1

package mcpserver_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
)

// TestMCPListNames checks directory_list with names_only over MCP: structured content
// {"names": [...]} that matches the outputSchema, directories ending in '/', and text that
// is the names one a line.
func TestMCPListNames(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "b.txt"), "b\n")
	writeFile(t, filepath.Join(dir, "a", "x.txt"), "x\n")
	if err := os.Symlink("a", filepath.Join(dir, "ln")); err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connectInMemory(t, srv, nil)
	res := call(t, cs, "directory_list", `{"names_only":true}`)
	if res.IsError {
		t.Fatal(text(res))
	}
	sc := structured(t, res)
	checkOutput(t, cs, "directory_list", sc)
	var names []string
	for _, n := range sc["names"].([]any) {
		names = append(names, n.(string))
	}
	if want := []string{"a/", "b.txt", "ln/"}; !slices.Equal(names, want) {
		t.Errorf("names = %q, want %q", names, want)
	}
	if got, want := text(res), "a/\nb.txt\nln/\n"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	ok(t, cs, "directory_list", `{}`) // with sizes: the text is the JSON
}
