//go:build !js && !wasip1

package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// hostBackends are the backends that need the host: store/osdir through host.Open, and
// store/sql (sqlBackends).
func hostBackends() []backend {
	return append(sqlBackends(), backend{"osdir", func(t *testing.T, opts *llmfs.Options) *llmfs.Workspace {
		opts.Root = t.TempDir()
		w, err := host.Open(opts)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}})
}
