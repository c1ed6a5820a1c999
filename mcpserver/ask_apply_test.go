//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
)

// Issue 39.4: --ask apply confirms review_apply with the person, naming what it applies;
// declined or cancelled, nothing reaches the files.
func TestAskBeforeApply(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			dir := tempDir(t)
			os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A\n"), 0o644)
			base, err := host.Open(&llmfs.Options{Root: dir, NoJournal: true})
			if err != nil {
				t.Fatal(err)
			}
			ov, err := overlay.New(ctx, base.Store(), mem.New())
			if err != nil {
				t.Fatal(err)
			}
			agentWS := base.With(llmfs.OnStore(ov))
			if _, err := agentWS.Write(ctx, "a.txt", "B\n", llmfs.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			srv, err := mcpserver.NewReviewer(agentWS, ov, &mcpserver.Options{Ask: []string{mcpserver.AskApply}})
			if err != nil {
				t.Fatal(err)
			}
			for _, action := range []string{"decline", "cancel"} {
				person := &asker{action: action}
				cs := connectInMemory(t, srv, person.client(version))
				fails(t, cs, "review_apply", `{"paths":["a.txt"]}`, "PERMISSION_DENIED")
				if q := person.questions(); q != "apply the pending change (a.txt)?" {
					t.Errorf("%s: asked %q", action, q)
				}
				mustFile(t, filepath.Join(dir, "a.txt"), "A\n")
			}
			cs := connectInMemory(t, srv, clientAt(version)) // no elicitation capability
			if msg := fails(t, cs, "review_apply", `{}`, "PERMISSION_DENIED"); !strings.Contains(msg, "elicitation") {
				t.Errorf("no elicitation: %q", msg)
			}
			mustFile(t, filepath.Join(dir, "a.txt"), "A\n")
			person := &asker{action: "accept"}
			cs = connectInMemory(t, srv, person.client(version))
			ok(t, cs, "review_apply", `{}`)
			if q := person.questions(); q != "apply the pending change (a.txt)?" {
				t.Errorf("accept: asked %q", q)
			}
			mustFile(t, filepath.Join(dir, "a.txt"), "B\n")
		})
	}
}
