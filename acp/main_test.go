//go:build !js && !wasip1

package acp

import (
	"os"
	"testing"

	"github.com/llmfs/llmfs/internal/testcache"
)

// TestMain keeps the host workspaces' journals of the tests in a temporary cache
// directory instead of ~/.cache.
func TestMain(m *testing.M) {
	restore := testcache.Isolate()
	code := m.Run()
	restore()
	os.Exit(code)
}
