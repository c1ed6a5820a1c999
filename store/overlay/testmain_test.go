//go:build !js && !wasip1

package overlay_test

import (
	"testing"

	"github.com/llmfs/llmfs/internal/testcache"
)

// TestMain keeps the journals of the tests' host bases out of the user's cache directory.
func TestMain(m *testing.M) { testcache.Main(m) }
