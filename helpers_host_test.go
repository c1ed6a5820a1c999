//go:build !js && !wasip1

package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
)

// hostBackends are the backends on the host file system: store/osdir through llmfs.Open.
func hostBackends() []backend {
	return []backend{{"osdir", func(t *testing.T, opts *llmfs.Options) *llmfs.Workspace {
		opts.Root = t.TempDir()
		w, err := llmfs.Open(opts)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}}}
}
