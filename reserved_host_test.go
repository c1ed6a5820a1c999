//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
)

// openWithCacheInside opens a workspace whose root holds llmfs's cache directory, as
// `llmfs mcp --root ~` does, and makes one change so that the journal exists.
func openWithCacheInside(t *testing.T, cacheRel string, opts llmfs.Options) (*llmfs.Workspace, string, string) {
	t.Helper()
	root := t.TempDir()
	cache := filepath.Join(root, filepath.FromSlash(cacheRel))
	t.Setenv("LLMFS_CACHE_DIR", cache)
	opts.Root = root
	w, err := host.Open(&opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeStore(w) })
	ctx := context.Background()
	if _, err := w.Write(ctx, "a.txt", "one\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.History().List(ctx, llmfs.HistoryFilter{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "note.txt"), []byte("LLMFSPRIVATE\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return w, root, cache
}

// TestReservedCacheOutOfBounds: nothing llmfs keeps for itself is visible or writable
// through the workspace when its cache lies inside the root (red team, issue 31 item 1).
func TestReservedCacheOutOfBounds(t *testing.T) {
	ctx := context.Background()
	w, root, cache := openWithCacheInside(t, ".cache/llmfs", llmfs.Options{})
	journals, _ := filepath.Glob(filepath.Join(cache, "journal", "*.db"))
	if len(journals) == 0 {
		t.Fatal("no journal database in the cache")
	}
	journal, _ := filepath.Rel(root, journals[0])
	journal = filepath.ToSlash(journal)
	if err := os.Symlink(".cache/llmfs", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	// Every spelling of the cache and of what it holds.
	paths := []string{".cache/llmfs", journal, ".cache/llmfs/note.txt", ".cache/./llmfs/note.txt",
		"sub/../.cache/llmfs/note.txt", filepath.Join(root, ".cache/llmfs/note.txt"),
		"link", "link/note.txt", "link/" + strings.TrimPrefix(journal, ".cache/llmfs/")}
	for _, p := range paths {
		denied := func(op string, err error) {
			t.Helper()
			if llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
				t.Errorf("%s %s: err = %v, want PERMISSION_DENIED", op, p, err)
			}
		}
		_, err := w.Read(ctx, p, llmfs.ReadOptions{})
		denied("read", err)
		_, err = w.List(ctx, p)
		denied("list", err)
		_, err = w.Write(ctx, p, "x", llmfs.WriteOptions{})
		denied("write", err)
		_, err = w.Write(ctx, p+"/new.txt", "x", llmfs.WriteOptions{})
		denied("write below", err)
		_, err = w.Mkdir(ctx, p+"/d")
		denied("mkdir", err)
		_, err = w.Delete(ctx, p)
		denied("delete", err)
		_, err = w.Move(ctx, p, "moved")
		denied("move from", err)
		_, err = w.Copy(ctx, p, "copied")
		denied("copy from", err)
		_, err = w.Move(ctx, "a.txt", p+"/a.txt")
		denied("move into", err)
		_, err = w.Copy(ctx, "a.txt", p+"/a.txt")
		denied("copy into", err)
		_, err = w.Grep(ctx, llmfs.GrepOptions{Pattern: "x", Path: p})
		denied("grep", err)
		_, err = w.Find(ctx, "*", llmfs.FindOptions{Path: p})
		denied("find", err)
	}
	entries, err := w.List(ctx, ".cache")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("list .cache = %v, want nothing", entries)
	}
	entries, err = w.List(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name == "link" {
			t.Errorf("list . shows the link to the cache: %v", entries)
		}
	}
	found, err := w.Find(ctx, "**", llmfs.FindOptions{Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found.Files {
		if strings.Contains(f.Path, "llmfs") {
			t.Errorf("find shows %s", f.Path)
		}
	}
	g, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "LLMFSPRIVATE|SQLite", Hidden: true, NoIgnore: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Entries) != 0 {
		t.Errorf("grep found %v", g.Entries)
	}
	// The journal survived, and undo still works.
	if _, err := os.Stat(journals[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(ctx, "a.txt", "two\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	changes, err := w.History().List(ctx, llmfs.HistoryFilter{})
	if err != nil || len(changes) != 2 {
		t.Fatalf("history = %v, %v; want the two writes of a.txt", changes, err)
	}
	last := max(changes[0].ID, changes[1].ID)
	if _, err := w.History().Undo(ctx, last); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(got) != "one\n" {
		t.Errorf("after undo a.txt = %q, want one", got)
	}
}

// TestReservedWriteOverJournalReturns: a write over the journal file once hung the
// session; it is refused at once.
func TestReservedWriteOverJournalReturns(t *testing.T) {
	w, root, cache := openWithCacheInside(t, "llmfs-cache", llmfs.Options{})
	journals, _ := filepath.Glob(filepath.Join(cache, "journal", "*.db"))
	if len(journals) == 0 {
		t.Fatal("no journal database in the cache")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := w.Write(ctx, journals[0], "garbage", llmfs.WriteOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
			t.Errorf("write over the journal: err = %v, want PERMISSION_DENIED", err)
		}
	case <-ctx.Done():
		t.Fatal("write over the journal hangs")
	}
	if _, err := w.Write(context.Background(), "b.txt", "b", llmfs.WriteOptions{}); err != nil {
		t.Errorf("a later write: %v", err)
	}
	_ = root
}

// TestReservedRootInsideCache: a root inside llmfs's cache, or the cache itself, is
// refused rather than handed to an agent.
func TestReservedRootInsideCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	sub := filepath.Join(cache, "journal")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{cache, sub} {
		for _, relaxed := range []bool{false, true} {
			w, err := host.Open(&llmfs.Options{Root: root, Relaxed: relaxed})
			if err == nil {
				closeStore(w)
				t.Errorf("Open(%s, relaxed %v) succeeded, want a refusal", root, relaxed)
				continue
			}
			if llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
				t.Errorf("Open(%s, relaxed %v): err = %v, want INVALID_PATH", root, relaxed, err)
			}
		}
	}
}

// TestReservedRelaxed: a relaxed workspace, whose store is the whole host, keeps the
// cache out of bounds wherever it lies.
func TestReservedRelaxed(t *testing.T) {
	ctx := context.Background()
	w, _, cache := openWithCacheInside(t, ".cache/llmfs", llmfs.Options{Relaxed: true})
	for _, p := range []string{".cache/llmfs/note.txt", filepath.Join(cache, "note.txt")} {
		if _, err := w.Read(ctx, p, llmfs.ReadOptions{}); llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
			t.Errorf("read %s: err = %v, want PERMISSION_DENIED", p, err)
		}
	}
}

func closeStore(w *llmfs.Workspace) {
	if c, ok := w.Store().(io.Closer); ok {
		c.Close()
	}
}

// TestReservedUnderReview: over a review layer (--review), a symbolic link into the cache
// is refused too: the overlay resolves links as its base does.
func TestReservedUnderReview(t *testing.T) {
	ctx := context.Background()
	w, root, _ := openWithCacheInside(t, ".cache/llmfs", llmfs.Options{})
	if err := os.Symlink(".cache/llmfs", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	ov, err := overlay.New(ctx, w.Store(), mem.New())
	if err != nil {
		t.Fatal(err)
	}
	rw := w.With(llmfs.OnStore(ov))
	for _, p := range []string{".cache/llmfs/note.txt", "link/note.txt"} {
		if _, err := rw.Read(ctx, p, llmfs.ReadOptions{}); llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
			t.Errorf("read %s under review: err = %v, want PERMISSION_DENIED", p, err)
		}
		if _, err := rw.Write(ctx, p, "x", llmfs.WriteOptions{}); llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
			t.Errorf("write %s under review: err = %v, want PERMISSION_DENIED", p, err)
		}
	}
}
