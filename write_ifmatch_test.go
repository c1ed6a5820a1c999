package llmfs_test

import (
	"context"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// WriteOptions.IfMatch makes an overwrite compare-and-swap on the content's hash, checked
// by the store as it writes (MCP resources/update's ifMatch stands on it).
func TestWriteIfMatch(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		putRaw(t, ws, "a.txt", "one\n")
		read := func() string {
			t.Helper()
			b, err := ws.ReadFile(ctx, "a.txt", 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		_, err := ws.Write(ctx, "a.txt", "lost\n", llmfs.WriteOptions{IfMatch: store.Hash([]byte("other\n"))})
		if llmfs.CodeOf(err) != llmfs.CodeFileChanged || read() != "one\n" {
			t.Fatalf("stale IfMatch: %v, file %q", err, read())
		}
		if _, err := ws.Write(ctx, "a.txt", "two\n", llmfs.WriteOptions{IfMatch: store.Hash([]byte("one\n"))}); err != nil || read() != "two\n" {
			t.Fatalf("current IfMatch: %v, file %q", err, read())
		}
		_, err = ws.Write(ctx, "new.txt", "x", llmfs.WriteOptions{IfMatch: store.Hash(nil)})
		if llmfs.CodeOf(err) != llmfs.CodeFileNotFound {
			t.Errorf("IfMatch of a missing file: %v", err)
		}
		if _, err := ws.Read(ctx, "new.txt", llmfs.ReadOptions{}); err == nil {
			t.Error("new.txt was created")
		}
		_, err = ws.Write(ctx, "a.txt", "x", llmfs.WriteOptions{Mode: llmfs.AppendTo, IfMatch: store.Hash([]byte("two\n"))})
		if llmfs.CodeOf(err) != llmfs.CodeInvalidArgument || read() != "two\n" {
			t.Errorf("IfMatch with append: %v, file %q", err, read())
		}
	})
}
