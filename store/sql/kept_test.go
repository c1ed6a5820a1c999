//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

// journaledWrite writes data to name in a change set of s's journal, as the core does.
func journaledWrite(t *testing.T, s *Store, name, data string, mode store.WriteMode) {
	t.Helper()
	err := s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
		before, old, err := store.Snapshot(ctx, tx, name, 1<<20)
		if err != nil {
			return err
		}
		whole := data
		if mode == store.Append {
			whole = string(old) + data
		}
		c := &store.Change{Op: "write", Path: name, Before: before, After: store.FileVersion([]byte(whole))}
		blobs := [][]byte{[]byte(whole)}
		if old != nil {
			blobs = append(blobs, old)
		}
		if err := tx.Add(ctx, []*store.Change{c}, blobs); err != nil {
			return err
		}
		_, err = tx.WriteFile(ctx, name, strings.NewReader(data), store.WriteOptions{Mode: mode})
		return err
	})
	if err != nil {
		t.Fatalf("journaled write of %s: %v", name, err)
	}
}

// TestJournaledContentKeptOnce: issue 14.8, on SQLite a journaled small write keeps the
// file's content once, as the journal's blob, rather than in chunks as well; every way of
// reading, copying, appending to, forking and pruning sees the same files as on
// PostgreSQL, which keeps chunks.
func TestJournaledContentKeptOnce(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		id := testID(t)
		t.Cleanup(func() { x.Remove(ctx, id) }) // removed by the test already, unless it failed
		s, err := x.Workspace(ctx, id, &Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Mkdir(ctx, "d"); err != nil {
			t.Fatal(err)
		}
		journaledWrite(t, s, "d/a.txt", "hello\n", store.Replace)
		journaledWrite(t, s, "d/a.txt", "hello again\n", store.Replace) // replaces kept content
		journaledWrite(t, s, "d/n.txt", "new\n", store.Exclusive)
		_, chunks, _ := contentOf(t, x, s.ws)
		if want := int64(2); b.name == "SQLite" {
			want = 0
			if chunks != want {
				t.Fatalf("journaled files take %d chunks, want %d", chunks, want)
			}
		} else if chunks != want {
			t.Fatalf("journaled files take %d chunks, want %d", chunks, want)
		}
		if got := readAll(t, s, "d/a.txt"); got != "hello again\n" {
			t.Fatalf("d/a.txt = %q", got)
		}
		if v, data, err := s.Snapshot(ctx, "d/a.txt", 1<<20); err != nil || string(data) != "hello again\n" || v.Hash != store.Hash(data) {
			t.Fatalf("Snapshot = %+v, %q, %v", v, data, err)
		}
		des, err := s.ReadDirContent(ctx, "d")
		if err != nil || len(des) != 2 {
			t.Fatalf("ReadDirContent = %v, %v", des, err)
		}
		if ce, ok := des[0].(store.ContentEntry); !ok || string(ce.Content()) != "hello again\n" {
			t.Fatalf("ReadDirContent's d/a.txt carries no content or the wrong one: %v", des[0])
		}
		// Read at an offset, by a file opened before the content changed.
		f, err := s.Open(ctx, "d/a.txt")
		if err != nil {
			t.Fatal(err)
		}
		journaledWrite(t, s, "d/a.txt", "third\n", store.Replace)
		buf := make([]byte, 5)
		if n, err := f.(interface {
			ReadAt([]byte, int64) (int, error)
		}).ReadAt(buf, 6); n != 5 || string(buf) != "again" {
			t.Fatalf("ReadAt of the file opened before = %q, %v", buf[:n], err)
		}
		f.Close()

		// A copy shares the content; an append, journaled or not, gives a file chunks of
		// its own and leaves the copy as it was.
		if err := s.Copy(ctx, "d/a.txt", "d/copy.txt"); err != nil {
			t.Fatal(err)
		}
		journaledWrite(t, s, "d/a.txt", "more\n", store.Append)
		writeString(t, s, "d/n.txt", "plain\n", store.WriteOptions{Mode: store.Append})
		for name, want := range map[string]string{"d/a.txt": "third\nmore\n", "d/copy.txt": "third\n", "d/n.txt": "new\nplain\n"} {
			if got := readAll(t, s, name); got != want {
				t.Errorf("%s = %q, want %q", name, got, want)
			}
		}
		if q, u, err := s.Quota(ctx); err != nil || u.Bytes != int64(len("third\nmore\n")+len("third\n")+len("new\nplain\n")) || u.Files != 4 {
			t.Errorf("usage = %+v, %+v, %v", q, u, err)
		}

		// A fork refers to the same content; pruning all of the original's history keeps
		// what a file of either still holds.
		dst := s.ID() + "-fork"
		t.Cleanup(func() { x.Remove(ctx, dst) })
		if err := x.Fork(ctx, s.ID(), dst); err != nil {
			t.Fatal(err)
		}
		if n, err := s.Journal().Prune(ctx, store.Retention{MaxAge: time.Nanosecond}); err != nil || n == 0 {
			t.Fatalf("Prune = %d, %v", n, err)
		}
		fk, err := x.Workspace(ctx, dst, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := fk.Journal().Prune(ctx, store.Retention{MaxAge: time.Nanosecond}); err != nil || n == 0 {
			t.Fatalf("Prune of the fork = %d, %v", n, err)
		}
		for _, w := range []*Store{s, fk} {
			if got := readAll(t, w, "d/copy.txt"); got != "third\n" {
				t.Errorf("%s: d/copy.txt = %q after pruning, want %q", w.ID(), got, "third\n")
			}
		}
		if err := x.Remove(ctx, s.ID()); err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, fk, "d/copy.txt"); got != "third\n" {
			t.Errorf("the fork's d/copy.txt = %q after removing the original", got)
		}
	})
}

// TestChangeSetLooks: what a change set looked at (a Stat, kept to spare the journal's
// snapshot and the write their queries) is forgotten as soon as it changes anything, a
// batch's file among them: a second write sees the first.
func TestChangeSetLooks(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		err := s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
			for _, name := range []string{"y", "b/x"} {
				if _, err := tx.Stat(ctx, name); !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("Stat(%s) = %v, want fs.ErrNotExist", name, err)
				}
			}
			err := tx.(interface {
				Batch(context.Context, func(*Batch) error) error
			}).Batch(ctx, func(b *Batch) error {
				if err := b.Mkdir("b"); err != nil {
					return err
				}
				for _, data := range []string{"one", "two"} {
					if _, err := b.WriteFile("b/x", strings.NewReader(data)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			if _, err := tx.Stat(ctx, "y"); !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("Stat(y) = %v, want fs.ErrNotExist", err)
			}
			for _, data := range []string{"1", "22"} {
				if _, err := tx.WriteFile(ctx, "y", strings.NewReader(data), store.WriteOptions{}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, s, "y"); got != "22" {
			t.Errorf("y = %q, want 22", got)
		}
		if got := readAll(t, s, "b/x"); got != "two" {
			t.Errorf("b/x = %q, want two", got)
		}
		if _, u, err := s.Quota(ctx); err != nil || u.Files != 3 || u.Bytes != 5 {
			t.Errorf("usage = %+v, %v; want 3 entries of 5 bytes", u, err)
		}
	})
}

// TestChangeSetLooksAgain: on PostgreSQL another writer may replace a file between a
// change set's Stat and its snapshot; the snapshot then fails with store.ErrChanged (the
// content the Stat saw is gone), and the next look finds the new content instead of what
// the change set saw before.
func TestChangeSetLooksAgain(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		if b.name != "Postgres" {
			t.Skip("SQLite's change set holds the write lock from its start: no writer gets in")
		}
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		old, now := strings.Repeat("o", ChunkSize+1), strings.Repeat("n", ChunkSize+2)
		writeString(t, s, "big", old, store.WriteOptions{})
		err := s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
			if _, err := tx.Stat(ctx, "big"); err != nil {
				return err
			}
			if _, err := s.WriteFile(ctx, "big", strings.NewReader(now), store.WriteOptions{}); err != nil {
				return err
			}
			if _, _, err := store.Snapshot(ctx, tx, "big", 1<<20); !errors.Is(err, store.ErrChanged) {
				return fmt.Errorf("snapshot after another writer replaced the file: %v, want store.ErrChanged", err)
			}
			v, data, err := store.Snapshot(ctx, tx, "big", 1<<20)
			if err != nil || string(data) != now || v.Size != int64(len(now)) {
				return fmt.Errorf("snapshot looking again = %+v, %d bytes, %v; want the new content", v, len(data), err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
