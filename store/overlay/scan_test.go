//go:build !js && !wasip1

package overlay_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

// countingStore counts the files opened through it.
type countingStore struct {
	store.Store
	opens atomic.Int64
}

func (c *countingStore) Open(ctx context.Context, name string) (fs.File, error) {
	c.opens.Add(1)
	return c.Store.Open(ctx, name)
}

// countingLister is a countingStore over a store that lists content, keeping that.
type countingLister struct {
	*countingStore
	l store.ContentLister
}

func (c countingLister) ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return c.l.ReadDirContent(ctx, name)
}

// TestPendingReadsNoFileEach: listing pending changes reads the upper store's files and
// merge bases through its directory listings, not one open each (a query each on SQLite),
// and reads no base file whose size says it differs from the agent's version (issue 40.4:
// 'llmfs review' of 1,000 changes read 3,000 files). The listing stays what it was.
func TestPendingReadsNoFileEach(t *testing.T) {
	_, base := hostBaseT(t, 100)
	cbase := &countingStore{Store: base}
	sq := sqliteUpper(t, filepath.Join(t.TempDir(), "u.db"))
	cup := countingLister{&countingStore{Store: sq}, sq.(store.ContentLister)}
	ov := newOverlay(t, cbase, cup)
	for i := range 100 {
		name := fmt.Sprintf("d%d/f%d.txt", i%10, i)
		if _, err := ov.WriteFile(ctx, name, strings.NewReader("changed\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// The same file once more: the base holds the agent's version already.
	if _, err := ov.WriteFile(ctx, "d0/f0.txt", strings.NewReader("line one\nline two\nline three\n"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cbase.opens.Store(0)
	cup.opens.Store(0)
	cs, err := ov.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 99 || cs[0].Kind != overlay.Modified || cs[0].Added != 1 || cs[0].Removed != 3 {
		t.Fatalf("pending: %d changes, first %+v", len(cs), cs[0])
	}
	// The state file, read again; the one base file of the same size as the agent's.
	if n := cup.opens.Load(); n > 2 {
		t.Errorf("the listing opened %d upper files, want at most 2", n)
	}
	if n := cbase.opens.Load(); n > 1 {
		t.Errorf("the listing opened %d base files, want at most 1", n)
	}
}

// hostBaseT makes a host directory of n small files in 10 directories.
func hostBaseT(t *testing.T, n int) (string, *osdir.Store) {
	dir := t.TempDir()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("d%d", i%10), fmt.Sprintf("f%d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("line one\nline two\nline three\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return dir, s
}

// TestApplyReadsBaseOnce: applying a change reads its base file once for the merge and the
// conflict check together (issue 40.4: twice before, each read hashed).
func TestApplyReadsBaseOnce(t *testing.T) {
	dir, base := hostBaseT(t, 20)
	cbase := &countingStore{Store: base}
	ov := newOverlay(t, cbase, sqliteUpper(t, filepath.Join(t.TempDir(), "u.db")))
	for i := range 20 {
		name := fmt.Sprintf("d%d/f%d.txt", i%10, i)
		if _, err := ov.WriteFile(ctx, name, strings.NewReader("changed\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	cbase.opens.Store(0)
	done, err := ov.Apply(ctx, nil, nil)
	if err != nil || len(done) != 20 {
		t.Fatalf("applied %d: %v", len(done), err)
	}
	if n := cbase.opens.Load(); n > 20 {
		t.Errorf("the apply opened base files %d times for 20 changes, want at most 20", n)
	}
	if got := hostFile(t, dir, "d3/f3.txt"); got != "changed\n" {
		t.Errorf("d3/f3.txt = %q", got)
	}
}
