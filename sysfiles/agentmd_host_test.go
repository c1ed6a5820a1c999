//go:build !js && !wasip1

package sysfiles_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

// resolvingStore is a host store that counts the path elements its callers ask it to
// resolve.
type resolvingStore struct {
	*osdir.Store
	elems atomic.Int64
}

func (s *resolvingStore) count(name string) { s.elems.Add(int64(strings.Count(name, "/") + 1)) }

func (s *resolvingStore) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	s.count(name)
	return s.Store.ReadDir(ctx, name)
}

func (s *resolvingStore) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	s.count(name)
	return s.Store.Stat(ctx, name)
}

func (s *resolvingStore) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	s.count(name)
	return s.Store.Lstat(ctx, name)
}

func (s *resolvingStore) Open(ctx context.Context, name string) (fs.File, error) {
	s.count(name)
	return s.Store.Open(ctx, name)
}

// deepChain makes depth nested directories "d" under dir with a file at the bottom,
// building each relative to the last.
func deepChain(t *testing.T, dir string, depth int) {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	for range depth {
		if err := r.Mkdir("d", 0o755); err != nil {
			t.Fatal(err)
		}
		sub, err := r.OpenRoot("d")
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		r = sub
	}
	if err := r.WriteFile("f.txt", []byte("deep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Close()
}

// TestAgentMDSummaryWalkLinear: Issue 12.2: the AGENT.md summary listed the tree one
// workspace List per directory, each resolving and deny-checking the whole path again:
// about depth^3, 10-14 s per rtc open after one agent write 800 levels deep. It is now one
// search of the tree, so what it asks the store to resolve does not grow with the depth,
// and it honours its context.
func TestAgentMDSummaryWalkLinear(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	const depth = 900
	dir := t.TempDir()
	deepChain(t, dir, depth)
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rs := &resolvingStore{Store: s}
	ws := llmfs.New(rs, &llmfs.Options{Root: dir})
	// A generous bound that must not fire: the summary must count the tree.
	opts := &sysfiles.Options{Tools: toolsOf(t, tools.RTC, llmfs.Full), Virtual: true, SummaryTime: 2 * time.Minute}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := sysfiles.Ensure(ctx, ws, opts); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "AGENT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "holds 1 file in 900 directories") || !strings.Contains(string(b), "`/d/`: 1 file") {
		t.Errorf("AGENT.md of a deep tree:\n%s", b)
	}
	if n := rs.elems.Load(); n > 4*depth {
		t.Errorf("the summary resolved %d path elements for a tree %d deep; want at most %d", n, depth, 4*depth)
	}

	// Cancelled by its caller (a signal), it stops and says so.
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := sysfiles.Ensure(done, ws, opts); err == nil {
		t.Error("Ensure with a cancelled context succeeded")
	}
}
