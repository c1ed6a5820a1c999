package mem_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/llmfs/llmfs/store/mem"
)

func TestMetadata(t *testing.T) {
	ctx := context.Background()
	s := mem.New()
	if _, err := s.GetMeta(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("GetMeta of a missing key: %v", err)
	}
	if err := s.SetMeta(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.GetMeta(ctx, "k"); err != nil || v != "v" {
		t.Errorf("GetMeta = %q, %v", v, err)
	}
	if des, _ := s.ReadDir(ctx, "."); len(des) != 0 {
		t.Errorf("metadata shows in the tree: %d entries", len(des))
	}
	if _, err := mem.New().GetMeta(ctx, "k"); err == nil {
		t.Error("another store sees the metadata")
	}
	s.SetMeta(ctx, "k", "")
	if _, err := s.GetMeta(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("GetMeta after removing: %v", err)
	}
}
