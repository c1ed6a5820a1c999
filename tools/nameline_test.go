//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// TestListNamesOnlyTextOneLineEach: in the text of directory_list with names_only, each
// entry is one line; a name with a newline, another control character or a leading quote
// comes quoted, so that "a\nb" does not read as the two entries "a" and "b". The JSON
// keeps the names as they are.
func TestListNamesOnlyTextOneLineEach(t *testing.T) {
	dir := t.TempDir()
	files := []string{"a", "a\nb", "tab\there", `"q"`, "(empty directory)", "plain é.txt"}
	for _, name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	ws, err := llmfs.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, tools.Agentool)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tb.CallResult(context.Background(), "directory_list", []byte(`{"names_only":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "\"\\\"q\\\"\"\n\"(empty directory)\"\n" + "a\n\"a\\nb\"\nplain é.txt\n\"tab\\there\"\n"
	if res.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s", res.Text, want)
	}
	var out struct{ Names []string }
	if err := json.Unmarshal(res.JSON, &out); err != nil {
		t.Fatal(err)
	}
	sorted := slices.Sorted(slices.Values(files))
	if !slices.Equal(out.Names, sorted) {
		t.Errorf("names = %q, want %q", out.Names, sorted)
	}
}
