//go:build !js && !wasip1

package sqlstore

import (
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestFork: issue 14.4, a fork is a workspace of its own holding the original's files and
// history, independent from then on.
func TestFork(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		j := s.Journal()
		err := j.Apply(ctx, "t", func(tx store.JournalTx) error {
			if err := tx.Mkdir(ctx, "d"); err != nil {
				return err
			}
			c := &store.Change{Op: "write", Path: "d/a.txt", Before: store.Version{Kind: store.Absent}, After: store.FileVersion([]byte("a"))}
			if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte("a")}); err != nil {
				return err
			}
			_, err := tx.WriteFile(ctx, "d/a.txt", strings.NewReader("a"), store.WriteOptions{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		writeString(t, s, "big.txt", strings.Repeat("x", 3*ChunkSize+5), store.WriteOptions{})
		if err := j.SetCheckpoint(ctx, "cp", 1); err != nil {
			t.Fatal(err)
		}
		dst := s.ID() + "-fork"
		t.Cleanup(func() { x.Remove(ctx, dst) })
		if err := x.Fork(ctx, s.ID(), dst); err != nil {
			t.Fatal(err)
		}
		if err := x.Fork(ctx, s.ID(), dst); !errors.Is(err, fs.ErrExist) {
			t.Errorf("second Fork = %v, want fs.ErrExist", err)
		}
		if err := x.Fork(ctx, s.ID()+"-none", dst+"2"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Fork of a missing workspace = %v, want fs.ErrNotExist", err)
		}
		f, err := x.Workspace(ctx, dst, nil)
		if err != nil {
			t.Fatal(err)
		}
		read := func(s *Store, name string) string {
			r, err := s.Open(ctx, name)
			if err != nil {
				return "<" + err.Error() + ">"
			}
			defer r.Close()
			b, _ := io.ReadAll(r)
			return string(b)
		}
		if read(f, "d/a.txt") != "a" || read(f, "big.txt") != strings.Repeat("x", 3*ChunkSize+5) {
			t.Fatal("the fork does not hold the original's files")
		}
		// Independent: a change to one is not seen in the other, either way.
		writeString(t, f, "d/a.txt", "fork", store.WriteOptions{Mode: store.Append})
		if err := s.Remove(ctx, "big.txt"); err != nil {
			t.Fatal(err)
		}
		if read(s, "d/a.txt") != "a" || read(f, "d/a.txt") != "afork" || read(f, "big.txt") != strings.Repeat("x", 3*ChunkSize+5) {
			t.Error("the fork and the original are not independent")
		}
		cs, err := f.Journal().Changes(ctx, store.ChangeFilter{})
		if err != nil || len(cs) != 1 || cs[0].Path != "d/a.txt" {
			t.Errorf("fork's history = %+v, %v; want the original's change", cs, err)
		}
		if cp, err := f.Journal().Checkpoint(ctx, "cp"); err != nil || cp.ID != 1 {
			t.Errorf("fork's checkpoint = %+v, %v", cp, err)
		}
		if _, u, err := f.Quota(ctx); err != nil || u.Files != 3 {
			t.Errorf("fork's usage = %+v, %v; want 3 entries", u, err)
		}
	})
}
