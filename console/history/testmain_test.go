package history

import (
	"testing"

	"github.com/llmfs/llmfs/internal/testcache"
)

// TestMain keeps the journals and metadata of the tests' host workspaces out of the
// user's cache directory.
func TestMain(m *testing.M) { testcache.Main(m) }
