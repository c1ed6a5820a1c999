//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

// referenceToolsList is the size in bytes of the tools/list result of the reference
// server, @modelcontextprotocol/server-filesystem (measured for issue 32).
const referenceToolsList = 12983

// Issue 32.14: the default dialect's tools/list is no larger than the reference
// server's. The test prints every dialect's.
func TestToolsListBudget(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	for _, d := range tools.Dialects {
		srv, err := mcpserver.New(openWS(t, tempDir(t), llmfs.Options{}), &mcpserver.Options{Dialect: d})
		if err != nil {
			t.Fatal(err)
		}
		res, err := connectInMemory(t, srv, nil).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		t.Logf("%s: tools/list of %d tools is %d bytes (reference server %d)", d, len(res.Tools), len(b), referenceToolsList)
		if d == tools.Agentool && len(b) > referenceToolsList {
			t.Errorf("the default dialect's tools/list is %d bytes, over the reference server's %d", len(b), referenceToolsList)
		}
	}
}
