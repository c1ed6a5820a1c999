//go:build linux

package osdir

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

// journaledWrite records and makes a write of data to name, as the workspace's recorder
// does, with written (data unless the test says otherwise) as what the store is given.
func journaledWrite(t *testing.T, s *Store, name string, data, written []byte) {
	t.Helper()
	ctx := context.Background()
	err := s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
		before, old, err := store.Snapshot(ctx, tx, name, 4<<20)
		if err != nil {
			return err
		}
		return store.Record(ctx, tx, func() (store.Plan, error) {
			c := &store.Change{Op: "write", Path: name, Before: before, After: store.FileVersion(data)}
			return store.Plan{Changes: []*store.Change{c}, Blobs: [][]byte{old, data}}, nil
		}, func(planned []*store.Change) ([]*store.Change, error) {
			_, err := tx.WriteFile(ctx, name, bytes.NewReader(written), store.WriteOptions{})
			return planned, err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshotIs checks that a snapshot of name gives want, and whether it came from what the
// journal's write left known (the very slice it wrote) or from reading the file.
func snapshotIs(t *testing.T, s *Store, name string, want []byte, known []byte) {
	t.Helper()
	v, got, err := s.Snapshot(context.Background(), name, 4<<20)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || !v.Equal(store.FileVersion(want)) {
		t.Fatalf("snapshot of %s: %.40q (%d bytes) %+v, want %.40q", name, got, len(got), v, want)
	}
	if fromMemory := known != nil && len(got) > 0 && &got[0] == &known[0]; fromMemory != (known != nil) {
		t.Fatalf("snapshot of %s from memory: %v, want %v", name, fromMemory, known != nil)
	}
}

// TestKnownSnapshot: the snapshot after a journaled write answers from what the write left
// known, with no read, and reads the file again whenever anything changed it since: a
// write in place of the same size, a chmod, a replacement, a removal.
func TestKnownSnapshot(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := filepath.Join(dir, "f.txt")
	v1 := []byte("version 1\n")
	journaledWrite(t, s, "f.txt", v1, v1)
	snapshotIs(t, s, "f.txt", v1, v1)

	// Written in place, same size, at once: the change time moves (multigrain timestamps).
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("VERSION 1\n"), 0)
	f.Close()
	snapshotIs(t, s, "f.txt", []byte("VERSION 1\n"), nil)

	v2 := []byte("version 2\n")
	journaledWrite(t, s, "f.txt", v2, v2)
	snapshotIs(t, s, "f.txt", v2, v2)
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	snapshotIs(t, s, "f.txt", v2, nil)

	v3 := []byte("version 3\n")
	journaledWrite(t, s, "f.txt", v3, v3)
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("replaced!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, p); err != nil {
		t.Fatal(err)
	}
	snapshotIs(t, s, "f.txt", []byte("replaced!\n"), nil)

	v4 := []byte("version 4\n")
	journaledWrite(t, s, "f.txt", v4, v4)
	os.Remove(p)
	if v, _, err := s.Snapshot(context.Background(), "f.txt", 1<<20); err != nil || v.Kind != store.Absent {
		t.Fatalf("removed: %+v %v", v, err)
	}

	// A write of other bytes than the change recorded leaves nothing known.
	journaledWrite(t, s, "g.txt", []byte("planned\n"), []byte("written\n"))
	snapshotIs(t, s, "g.txt", []byte("written\n"), nil)
	// Nor does a write larger than what is kept in memory.
	big := []byte(strings.Repeat("x", knownFileMax+1))
	journaledWrite(t, s, "big", big, big)
	snapshotIs(t, s, "big", big, nil)
}

// TestKnownSnapshotLater: the stamp still tells a change made well after the write (past
// any clock tick) from none.
func TestKnownSnapshotLater(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v1 := []byte("version 1\n")
	journaledWrite(t, s, "f.txt", v1, v1)
	time.Sleep(20 * time.Millisecond)
	snapshotIs(t, s, "f.txt", v1, v1)
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("version 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snapshotIs(t, s, "f.txt", []byte("version 2\n"), nil)
}

// TestKnownIfMatch: a conditional write takes the hash of what the journal's last write
// left from memory while the file is as it left it, and reads the file otherwise.
func TestKnownIfMatch(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	ctx := context.Background()
	dir := t.TempDir()
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v1 := []byte("version 1\n")
	journaledWrite(t, s, "f.txt", v1, v1)
	fi, err := os.Stat(filepath.Join(dir, "f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := s.knownHash("f.txt", "f.txt", fi); !ok || h != store.Hash(v1) {
		t.Fatalf("knownHash = %.8s, %v; want the written content's", h, ok)
	}
	ifMatch := func(hash string) error {
		_, err := s.WriteFile(ctx, "f.txt", strings.NewReader("version 2\n"), store.WriteOptions{IfMatch: hash})
		return err
	}
	if err := ifMatch(store.Hash([]byte("other\n"))); !errors.Is(err, store.ErrChanged) {
		t.Fatalf("IfMatch of another hash: %v, want ErrChanged", err)
	}
	// Changed in place, same size: the hash known no longer holds, and the file is read.
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("VERSION 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ifMatch(store.Hash(v1)); !errors.Is(err, store.ErrChanged) {
		t.Fatalf("IfMatch of the journal's version after a change in place: %v, want ErrChanged", err)
	}
	if err := ifMatch(store.Hash([]byte("VERSION 1\n"))); err != nil {
		t.Fatalf("IfMatch of what the file holds: %v", err)
	}
	v3 := []byte("version 3\n")
	journaledWrite(t, s, "f.txt", v3, v3)
	if err := ifMatch(store.Hash(v3)); err != nil {
		t.Fatalf("IfMatch of the journal's version: %v", err)
	}
}
