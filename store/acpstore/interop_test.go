//go:build !js && !wasip1

package acpstore_test

// Interop test against the official ACP TypeScript SDK (@agentclientprotocol/sdk): a
// TypeScript client serves llmfs's agent side. It needs node and the packages installed
// by acp/testdata/interop/install.sh; without them it skips, unless
// LLMFS_REQUIRE_INTEROP=1.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/internal/acppeer"
)

// TestInteropTSClient runs llmfs's agent side (a workspace over a Store) against the
// TypeScript client, with each combination of fs capabilities.
func TestInteropTSClient(t *testing.T) {
	node, dir := acppeer.Interop(t)
	for _, caps := range []string{"", "read", "write", "read,write"} {
		t.Run("caps="+caps, func(t *testing.T) {
			p := acppeer.NewProject(t)
			callsFile := filepath.Join(p.Base, "calls.json")
			cmd := exec.Command(node, filepath.Join(dir, "fake-client.mjs"))
			cmd.Env = append(os.Environ(), "CAPS="+caps, "ROOT="+p.Root, "PROMPT=store", "CALLS_FILE="+callsFile,
				"BUFFER_PATH="+filepath.Join(p.Root, "b.txt"), "BUFFER_TEXT=buffered\n")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			agent := acppeer.New(p.Result, p.Secret())
			agent.Connect(stdout, stdin)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("fake client: %v\n%s", err, stderr.String())
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("fake client hung\n%s", stderr.String())
			}
			agent.Close()

			var log struct {
				Calls  []string `json:"calls"`
				Prompt struct {
					StopReason string `json:"stopReason"`
				} `json:"prompt"`
			}
			b, err := os.ReadFile(callsFile)
			if err != nil {
				t.Fatalf("no calls log: %v\n%s", err, stderr.String())
			}
			json.Unmarshal(b, &log)
			if log.Prompt.StopReason != "end_turn" {
				t.Errorf("stop reason %q", log.Prompt.StopReason)
			}
			canRead, canWrite := strings.Contains(caps, "read"), strings.Contains(caps, "write")
			reads, writes := count(log.Calls, acp.MethodReadTextFile), count(log.Calls, acp.MethodWriteTextFile)
			if !canRead && reads > 0 || !canWrite && writes > 0 {
				t.Errorf("agent called unadvertised methods: %v", log.Calls)
			}
			if canRead && reads == 0 || canWrite && writes == 0 {
				t.Errorf("agent did not use advertised methods: %v", log.Calls)
			}
			if other := slices.DeleteFunc(slices.Clone(log.Calls), func(m string) bool {
				return m == acp.MethodReadTextFile || m == acp.MethodWriteTextFile
			}); len(other) > 0 {
				t.Errorf("agent called %v", other)
			}

			res := p.Results(t)
			wantB := "bee\n"
			if canRead {
				wantB = "buffered\n"
			}
			acppeer.CheckResults(t, res, []acppeer.Result{
				{Name: "read", Content: "one\ntwo\nthree\nfour\n"},
				{Name: "read b", Content: wantB},
				{Name: "read line+limit", Content: "two\nthree\n"},
				{Name: "read missing", FSCode: string(llmfs.CodeFileNotFound)},
				{Name: "read symlink out", FSCode: string(llmfs.CodeInvalidPath)},
				{Name: "read outside", FSCode: string(llmfs.CodeInvalidPath)},
				{Name: "write nested"}, {Name: "write empty"}, {Name: "write overwrite"}, {Name: "write append"},
				{Name: "write create existing", FSCode: string(llmfs.CodeFileAlreadyExists)},
				{Name: "edit"},
			})
			for rel, want := range map[string]string{"store-new/n.txt": "via store\n", "store-empty.txt": "", "b.txt": "store overwrite\nappended\n", "a.txt": "one\ntwo\nTHREE\nfour\n"} {
				if got := p.File(t, rel); got != want {
					t.Errorf("%s = %q, want %q", rel, got, want)
				}
			}
		})
	}
}

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}
