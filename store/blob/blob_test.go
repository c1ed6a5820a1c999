package blob_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/llmfs/llmfs/store/blob"
)

func TestKeys(t *testing.T) {
	sum := blob.Sum([]byte("x"))
	if got := blob.SumOf(blob.ChunkKey(sum)); got != sum {
		t.Fatalf("SumOf(ChunkKey(%s)) = %q", sum, got)
	}
	for _, bad := range []string{"", "chunks/", "chunks/xyz", "other/" + sum, "chunks/" + sum[:63] + "g"} {
		if got := blob.SumOf(bad); got != "" {
			t.Errorf("SumOf(%q) = %q, want none", bad, got)
		}
	}
	if err := blob.Verify(sum, []byte("y")); !errors.Is(err, blob.ErrCorrupt) {
		t.Fatalf("Verify of other content: %v", err)
	}
}

func TestMem(t *testing.T) {
	ctx := context.Background()
	m := blob.NewMem()
	if ok, err := m.PutIfAbsent(ctx, "chunks/a", []byte("hello")); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, _ := m.PutIfAbsent(ctx, "chunks/a", []byte("other")); ok {
		t.Fatal("a second put created an object")
	}
	if got, err := m.GetRange(ctx, "chunks/a", 1, 3); string(got) != "ell" || err != nil {
		t.Fatalf("GetRange = %q, %v", got, err)
	}
	m.Delete(ctx, "chunks/a")
	if _, err := m.Get(ctx, "chunks/a"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Get after Delete: %v", err)
	}
}
