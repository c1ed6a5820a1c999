//go:build !js && !wasip1

package osdir_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

func TestRealName(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"a/b", ".git"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a/b/f"), []byte("f"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"rel":      "a/b",
		"abs":      filepath.Join(dir, ".git"),
		"a/up":     "..",
		"file":     "a/b/f",
		"out":      outside,
		"dangling": "a/nothing",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	type test struct{ name, want string }
	for _, tt := range []test{
		{".", "."},
		{"a/b/f", "a/b/f"},
		{"rel/f", "a/b/f"},
		{"abs/config", ".git/config"},           // missing last element: kept
		{"abs/hooks/new/x", ".git/hooks/new/x"}, // missing elements: kept
		{"a/up/abs/HEAD", ".git/HEAD"},
		{"file", "a/b/f"},
		{"dangling", "a/nothing"},
		{"file/x", "a/b/f/x"},      // below a file: resolved as far as it goes
		{"a/b/new/x", "a/b/new/x"}, // missing below plain directories: its own name
		{"nothing/x", "nothing/x"},
		{"a/b/f/x", "a/b/f/x"}, // below a plain file
		{"a/up/rel/new", "a/b/new"},
	} {
		got, err := s.RealName(ctx, tt.name)
		if err != nil || got != tt.want {
			t.Errorf("RealName(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := s.RealName(ctx, "out/x"); !errors.Is(err, store.ErrEscape) {
		t.Errorf("RealName(out/x) error = %v, want ErrEscape", err)
	}
	if _, err := s.RealName(ctx, "../x"); !errors.Is(err, store.ErrInvalidName) {
		t.Errorf("RealName(../x) error = %v, want ErrInvalidName", err)
	}
}

func TestMetadataPersistsOutsideTheRoot(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	dir := t.TempDir()
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetMeta(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("GetMeta of a missing key: %v, want ErrNotExist", err)
	}
	if err := s.SetMeta(ctx, "k", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMeta(ctx, "other", "x"); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// A new store on the same directory (a restart) sees the value; another directory does not.
	s2, _ := osdir.New(dir, false)
	if v, err := s2.GetMeta(ctx, "k"); err != nil || v != "v1" {
		t.Errorf("GetMeta after reopening = %q, %v; want v1", v, err)
	}
	s3, _ := osdir.New(t.TempDir(), false)
	if _, err := s3.GetMeta(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("another directory sees the metadata: %v", err)
	}
	if err := s2.SetMeta(ctx, "k", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.GetMeta(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("GetMeta after removing = %v, want ErrNotExist", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("metadata left %d entries in the root", len(es))
	}
	if p, _ := s2.MetaPath(); filepath.Dir(filepath.Dir(p)) != cache {
		t.Errorf("MetaPath = %q, want a file under %s/meta", p, cache)
	}
}
