//go:build !js && !wasip1

package sqlstore

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/blob"
)

// TestObjectsIOError: through the core, an object store that fails or has lost a chunk
// gives IO_ERROR with the cause, and a failed write leaves the file as it was.
func TestObjectsIOError(t *testing.T) {
	x := connectSQLite(t)
	objs := blob.NewMem()
	fl := &flaky{Store: objs}
	x.SetBlobs(fl)
	ws := llmfs.New(newWorkspace(t, x, Quota{}), nil)
	content := string(big("c", 2*ChunkSize))
	if _, err := ws.Write(ctx, "f.txt", content, llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	fl.every = 1
	_, err := ws.Write(ctx, "f.txt", string(big("d", 2*ChunkSize)), llmfs.WriteOptions{})
	if llmfs.CodeOf(err) != llmfs.CodeIO || !strings.Contains(err.Error(), errInjected.Error()) {
		t.Fatalf("write with the object store failing: %v (%s), want IO_ERROR with the cause", err, llmfs.CodeOf(err))
	}
	if got, err := ws.ReadFile(ctx, "f.txt", 1<<30); err != nil || string(got) != content {
		t.Fatalf("after the failed write: %d bytes, %v; want the old content", len(got), err)
	}
	objs.Delete(ctx, blob.ChunkKey(blob.Sum([]byte(content[ChunkSize:2*ChunkSize]))))
	_, err = ws.ReadFile(ctx, "f.txt", 1<<30)
	if llmfs.CodeOf(err) != llmfs.CodeIO || !strings.Contains(err.Error(), "missing from object storage") {
		t.Fatalf("reading a file whose chunk is lost: %v (%s), want IO_ERROR", err, llmfs.CodeOf(err))
	}
}
