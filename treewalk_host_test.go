//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/osdir"
)

// deepTree makes a chain of depth directories named "d" under dir, with a 5-byte file at
// the bottom, and returns the bottom directory's name relative to dir. It builds the chain
// one directory relative to the last, since a path resolved from dir every time would
// make the setup itself quadratic.
func deepTree(t *testing.T, dir string, depth int) string {
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
	return strings.Repeat("d/", depth-1) + "d"
}

// resolvingStore is a host store that counts the path elements its callers ask it to
// resolve: a walk through the store that lists each level by its full name resolves
// depth^2/2 of them.
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

// TestQuotaUsageWalkLinear: Issue 12.2: the quota's first count listed each directory
// through the store by its full name, resolving it from the root again: depth^2 (7 s for
// a tree 2,600 levels deep). It must resolve a bounded number of path elements per
// directory, and stop when its context is done.
func TestQuotaUsageWalkLinear(t *testing.T) {
	const depth = 1200
	dir := t.TempDir()
	deepTree(t, dir, depth)
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rs := &resolvingStore{Store: s}
	w := llmfs.New(rs, &llmfs.Options{Root: dir, Quota: llmfs.Quota{MaxBytes: 1 << 30}})
	// A generous deadline that must not fire; the bound below is what the test checks.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bytes, files, err := w.Usage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if bytes != 5 || files != depth+1 {
		t.Errorf("Usage = %d bytes, %d files; want 5, %d", bytes, files, depth+1)
	}
	if n := rs.elems.Load(); n > 4*depth {
		t.Errorf("the usage walk resolved %d path elements for a tree %d deep; want at most %d", n, depth, 4*depth)
	}

	// Cancelled, it stops with the context's error.
	w2 := llmfs.New(rs, &llmfs.Options{Root: dir, Quota: llmfs.Quota{MaxFiles: 1 << 20}})
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, _, err := w2.Usage(done); err == nil {
		t.Error("Usage with a cancelled context succeeded")
	}
}

// TestQuotaUsageWalkReopensLevels: Issue 12.2: the checkpoint
// scheme that bounds its open descriptors reopens levels correctly: a wide tree below a
// deep one is counted whole.
func TestQuotaUsageWalkReopensLevels(t *testing.T) {
	dir := t.TempDir()
	bottom := deepTree(t, dir, 100)
	for _, d := range []string{"d", "d/d/d", bottom} {
		for _, f := range []string{"a", "b"} {
			if err := os.WriteFile(dir+"/"+d+"/"+f, []byte("xy"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	w, err := host.Open(&llmfs.Options{Root: dir, Quota: llmfs.Quota{MaxBytes: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	bytes, files, err := w.Usage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if bytes != 5+6*2 || files != 100+1+6 {
		t.Errorf("Usage = %d bytes, %d files; want %d, %d", bytes, files, 5+6*2, 100+1+6)
	}
}

// TestQuotaUsageWalkSkipsTemporaryFiles: the host walk reads directories itself, so it must
// leave out what the store's listings hide: a temporary file a crashed write left behind
// (Issue 12.4) is not counted.
func TestQuotaUsageWalkSkipsTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/a.txt", []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/.a.txt.llmfs-00000001x2y3z", []byte("partial write"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := host.Open(&llmfs.Options{Root: dir, Quota: llmfs.Quota{MaxBytes: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	bytes, files, err := w.Usage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if bytes != 3 || files != 1 {
		t.Errorf("Usage = %d bytes, %d files; want 3, 1 (the temporary file left out)", bytes, files)
	}
}

// TestQuotaUsageWalkSwapDirForLink: the usage count never counts what lies outside the
// root when a directory of the tree is swapped for a symbolic link to outside while it
// walks: each directory is opened below its parent's handle without following a link.
func TestQuotaUsageWalkSwapDirForLink(t *testing.T) {
	base := t.TempDir()
	dir, outside := base+"/root", base+"/outside"
	for _, d := range []string{dir + "/a/b", outside + "/b"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(dir+"/a/b/f.txt", []byte("deep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 1<<20)
	for _, f := range []string{outside + "/b/f.txt", outside + "/big"} {
		if err := os.WriteFile(f, big, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, dir+"/probe"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Remove(dir + "/probe")
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 400 {
			if os.Rename(dir+"/a", dir+"/a.aside") != nil {
				continue
			}
			if os.Symlink(outside, dir+"/a") == nil {
				time.Sleep(20 * time.Microsecond)
				os.Remove(dir + "/a")
			}
			for os.Rename(dir+"/a.aside", dir+"/a") != nil {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
		}
		w := llmfs.New(s, &llmfs.Options{Root: dir, Quota: llmfs.Quota{MaxBytes: 1 << 30}})
		if bytes, _, err := w.Usage(context.Background()); err == nil && bytes > 5 {
			t.Fatalf("Usage = %d bytes with a directory swapped for a link to outside; want at most 5", bytes)
		}
	}
}
