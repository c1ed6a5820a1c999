//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// largeBlob returns content of n bytes unique to this test run.
func largeBlob(t *testing.T, n int) []byte {
	b := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
	copy(b, fmt.Sprintf("%s %d ", t.Name(), os.Getpid()))
	return b
}

// addBlob records a write of b to name in a log of its own, as a host directory does.
func addBlob(t *testing.T, x *DB, name string, b []byte) *Log {
	t.Helper()
	ctx := context.Background()
	id := fmt.Sprintf("parts-%d-%d", os.Getpid(), wsSeq.Add(1))
	l, err := x.Log(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := x.Remove(context.Background(), id); err != nil {
			t.Errorf("remove workspace: %v", err)
		}
	})
	c := &store.Change{Op: "write", Path: name, Before: store.Version{Kind: store.Absent}, After: store.FileVersion(b)}
	if _, err := l.Add(ctx, "t", 0, []*store.Change{c}, [][]byte{b, b}, store.Committed, nil); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLargeBlobInParts: a journal blob over blobPart is kept in parts of blobPart bytes
// (its row holds no data), and read back whole.
func TestLargeBlobInParts(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		ctx := context.Background()
		big := largeBlob(t, 3*blobPart+17)
		l := addBlob(t, x, "big", big)
		h := store.Hash(big)
		var inRow, parts, partBytes int64
		if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT LENGTH(data) FROM llmfs_jblobs WHERE hash = ?`), h).Scan(&inRow); err != nil {
			t.Fatal(err)
		}
		if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COUNT(*), COALESCE(MAX(LENGTH(data)), 0) FROM llmfs_jparts WHERE hash = ?`), h).Scan(&parts, &partBytes); err != nil {
			t.Fatal(err)
		}
		if inRow != 0 || parts != 4 || partBytes != blobPart {
			t.Errorf("a %d-byte blob: %d bytes in its row, %d parts of at most %d bytes; want 0, 4, %d", len(big), inRow, parts, partBytes, blobPart)
		}
		got, err := l.Blob(ctx, h)
		if err != nil || !bytes.Equal(got, big) {
			t.Errorf("Blob = %d bytes, %v; want the %d written", len(got), err, len(big))
		}
		// One more change with the same content keeps no second copy.
		addBlob(t, x, "again", big)
		if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COUNT(*) FROM llmfs_jparts WHERE hash = ?`), h).Scan(&parts); err != nil || parts != 4 {
			t.Errorf("after the same content again: %d parts, %v; want 4", parts, err)
		}
	})
}

// TestLargeBlobPartsMissing: a parted blob whose parts were lost is reported as damaged,
// not as absent and not as shorter content.
func TestLargeBlobPartsMissing(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		ctx := context.Background()
		big := largeBlob(t, 2*blobPart+1)
		l := addBlob(t, x, "big", big)
		h := store.Hash(big)
		if _, err := x.db.ExecContext(ctx, x.d.rebind(`DELETE FROM llmfs_jparts WHERE hash = ? AND seq = 1`), h); err != nil {
			t.Fatal(err)
		}
		got, err := l.Blob(ctx, h)
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Blob with a part missing = %d bytes, %v; want an error that is not ErrNotExist", len(got), err)
		}
	})
}

// TestRemoveDropsJournalContent: removing a workspace drops the journal content only it
// referred to, parts and all, and keeps what another workspace's history refers to.
func TestRemoveDropsJournalContent(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		ctx := context.Background()
		only, shared := largeBlob(t, blobPart+5), []byte("shared "+t.Name()+fmt.Sprint(os.Getpid()))
		count := func(table, h string) int64 {
			t.Helper()
			var n int64
			if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COUNT(*) FROM `+table+` WHERE hash = ?`), h).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		id := fmt.Sprintf("rm-%d-%d", os.Getpid(), wsSeq.Add(1))
		l, err := x.Log(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, blob := range [][]byte{only, shared} {
			c := &store.Change{Op: "write", Path: "f", Before: store.Version{Kind: store.Absent}, After: store.FileVersion(blob)}
			if _, err := l.Add(ctx, "t", 0, []*store.Change{c}, [][]byte{blob}, store.Committed, nil); err != nil {
				t.Fatal(err)
			}
		}
		addBlob(t, x, "other", shared) // another workspace's history holds it too
		if err := x.Remove(ctx, id); err != nil {
			t.Fatal(err)
		}
		if n, p := count("llmfs_jblobs", store.Hash(only)), count("llmfs_jparts", store.Hash(only)); n != 0 || p != 0 {
			t.Errorf("after the remove, the content only it referred to: %d blob rows and %d parts, want none", n, p)
		}
		if n := count("llmfs_jblobs", store.Hash(shared)); n != 1 {
			t.Errorf("after the remove, the content another workspace refers to: %d blob rows, want 1", n)
		}
	})
}
