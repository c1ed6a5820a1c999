//go:build !js && !wasip1

package main

import (
	"strings"
	"testing"
)

// TestReviewDSNMapsTheFile: the default pending layer is read through a memory map, not a
// read call per page (issue 40.4); a --review-store DSN is taken as given.
func TestReviewDSNMapsTheFile(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	f := &wsFlags{}
	dsn, err := f.reviewDSN("k")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dsn, "sqlite:") || !strings.Contains(dsn, "_pragma="+reviewMmap) {
		t.Errorf("default review DSN %q", dsn)
	}
	f.review.store = "sqlite:/x.db"
	if dsn, _ := f.reviewDSN("k"); dsn != "sqlite:/x.db" {
		t.Errorf("--review-store gave %q", dsn)
	}
}
