package llmfs_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// maxWorkspaceMethods bounds the exported methods of *Workspace (issue 34): the file
// operations, and one accessor per group of the rest (History, Paths, Settings, With,
// Review, ...). A new capability gets a type of its own, not more methods here. Symlink and
// SetAttr (issue 36: what build tools need in a mount) and WriteFrom (Write's streaming
// form, for files too large to hold) are file operations, and brought the count to 31.
const maxWorkspaceMethods = 31

func TestWorkspaceMethodCount(t *testing.T) {
	typ := reflect.TypeFor[*llmfs.Workspace]()
	if n := typ.NumMethod(); n > maxWorkspaceMethods {
		var names []string
		for i := range n {
			names = append(names, typ.Method(i).Name)
		}
		t.Errorf("*Workspace has %d exported methods, want at most %d: %s", n, maxWorkspaceMethods, strings.Join(names, ", "))
	}
}
