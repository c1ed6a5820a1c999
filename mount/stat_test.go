//go:build linux

package mount_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/store/osdir"
)

// realNames counts the store's RealName calls (what matching the deny rules costs).
type realNames struct {
	*osdir.Store
	n atomic.Int64
}

func (s *realNames) RealName(ctx context.Context, name string) (string, error) {
	s.n.Add(1)
	return s.Store.RealName(ctx, name)
}

// TestLookupMissingSkipsDeny: a lookup of a name the store does not have (most of a
// clone's or a build's) is ENOENT without matching the deny rules, which resolve the
// path's links in the store; a name it has is matched, and a denied one reached through
// a link is hidden all the same.
func TestLookupMissingSkipsDeny(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "secret"), 0o755)
	os.WriteFile(filepath.Join(dir, "secret", "x"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	if err := os.Symlink("secret", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	st, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	counted := &realNames{Store: st}
	ws := llmfs.New(counted, &llmfs.Options{Root: dir, Deny: []string{"secret"}})
	m, err := mount.NewCore(ws, mount.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"b.txt", "d/e/f.txt", "l/nothing"} {
		if _, _, err := m.Lookup(ctx, p); !os.IsNotExist(err) && err != syscall.ENOENT {
			t.Errorf("Lookup(%s): %v, want ENOENT", p, err)
		}
	}
	if n := counted.n.Load(); n != 0 {
		t.Errorf("%d RealName calls for 3 missing names, want none", n)
	}
	if _, _, err := m.Lookup(ctx, "a.txt"); err != nil {
		t.Errorf("Lookup(a.txt): %v", err)
	}
	if _, _, err := m.Lookup(ctx, "l/x"); err != syscall.ENOENT {
		t.Errorf("Lookup(l/x), denied through the link: %v, want ENOENT", err)
	}
	if counted.n.Load() == 0 {
		t.Error("the names the store has were not matched against the deny rules")
	}
}

// TestCommitMatchesRulesOnce: writing a new file with a mode matches the deny rules at
// the create and in the workspace's write, not again when the mount compares the mode
// the store gave the file with the one it was created with.
func TestCommitMatchesRulesOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	counted := &realNames{Store: st}
	ws := llmfs.New(counted, &llmfs.Options{Root: dir, Deny: []string{"secret"}})
	m, err := mount.NewCore(ws, mount.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := m.Create(ctx, "tool", "sh", os.O_WRONLY, 0o755, func() mount.Key { return relKey("tool") })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write([]byte("#!/bin/sh\n"), 0); err != nil {
		t.Fatal(err)
	}
	created := counted.n.Load()
	if err := h.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	h.Release(ctx)
	commit := counted.n.Load() - created
	before := counted.n.Load()
	if _, err := ws.WriteFrom(ctx, "other", strings.NewReader("x\n"), llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if write := counted.n.Load() - before; commit > write {
		t.Errorf("the deny rules matched %d times in the commit of one file, want %d (the write's)", commit, write)
	}
	if fi, err := os.Stat(filepath.Join(dir, "tool")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("tool: %v, %v; want mode 0755", fi, err)
	}
}
