package llmfs_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The adapters for agent frameworks and vendor SDKs are nested modules (adapters/*/go.mod)
// so that the core's dependencies never grow with them: no SDK an adapter requires
// directly may appear in the root go.mod, and the root must not require an adapter.
func TestAdapterDependenciesStayOutOfTheCore(t *testing.T) {
	root := requires(t, "go.mod")
	mods, err := filepath.Glob(filepath.Join("adapters", "*", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) == 0 {
		t.Skip("no adapter modules in this tree")
	}
	for path := range root {
		if strings.HasPrefix(path, "github.com/llmfs/llmfs/adapters") {
			t.Errorf("the root go.mod requires the adapter %s", path)
		}
	}
	for _, mod := range mods {
		for path, direct := range requires(t, mod) {
			if !direct || path == "github.com/llmfs/llmfs" {
				continue
			}
			if _, ok := root[path]; ok {
				t.Errorf("%s requires %s, which the root go.mod requires too: an adapter's SDK must stay out of the core", mod, path)
			}
		}
	}
}

// requires reads the require directives of a go.mod: module path -> whether it is a
// direct requirement (no "// indirect" comment).
func requires(t *testing.T, name string) map[string]bool {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	block := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			block = true
			continue
		case block && line == ")":
			block = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !block:
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[0], "//") {
			continue
		}
		out[fields[0]] = !strings.Contains(line, "// indirect")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
