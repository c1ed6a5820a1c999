//go:build !js && !wasip1

package sqlstore

import (
	"errors"
	"fmt"
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

// contentOf counts the chunk rows and bytes of the content the files of workspaces ws refer
// to (each content once, however many files share it), and their nodes.
func contentOf(t testing.TB, x *DB, ws ...int64) (nodes, chunks, bytes int64) {
	t.Helper()
	in := "?" + strings.Repeat(", ?", len(ws)-1)
	args := make([]any, len(ws))
	for i, w := range ws {
		args[i] = w
	}
	if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COUNT(*) FROM llmfs_nodes WHERE ws IN (`+in+`)`), args...).Scan(&nodes); err != nil {
		t.Fatal(err)
	}
	err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM llmfs_chunks
		WHERE blob IN (SELECT blob FROM llmfs_nodes WHERE ws IN (`+in+`) AND blob <> 0)`), args...).Scan(&chunks, &bytes)
	if err != nil {
		t.Fatal(err)
	}
	return nodes, chunks, bytes
}

// TestForkCopiesNoContent: issue 14.4, a fork copies metadata rows only, so its work does
// not grow with the workspace's size in bytes: forking a workspace of 3 one-byte files and
// one of 3 files of 3 MB each copies the same number of rows and no chunk at all.
func TestForkCopiesNoContent(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		type work struct{ nodes, chunks, bytes int64 }
		fork := func(size int) work {
			s := newWorkspace(t, x, Quota{})
			for _, d := range []string{"d", "d/e"} {
				if err := s.Mkdir(ctx, d); err != nil {
					t.Fatal(err)
				}
			}
			writeString(t, s, "d/e/deep.txt", strings.Repeat("d", size), store.WriteOptions{})
			writeString(t, s, "a.txt", strings.Repeat("a", size), store.WriteOptions{})
			writeString(t, s, "b.txt", strings.Repeat("b", size), store.WriteOptions{})
			n0, c0, b0 := contentOf(t, x, s.ws)
			dst := s.ID() + "-fork"
			t.Cleanup(func() { x.Remove(ctx, dst) })
			if err := x.Fork(ctx, s.ID(), dst); err != nil {
				t.Fatal(err)
			}
			f, err := x.Workspace(ctx, dst, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(t, f, "d/e/deep.txt"); got != strings.Repeat("d", size) {
				t.Fatalf("the fork's d/e/deep.txt holds %d bytes, want %d", len(got), size)
			}
			n1, c1, b1 := contentOf(t, x, s.ws, f.ws)
			if b0 < 3*int64(size) {
				t.Fatalf("the workspace's content is %d bytes, want at least %d", b0, 3*size)
			}
			return work{n1 - n0, c1 - c0, b1 - b0}
		}
		small, big := fork(1), fork(3<<20)
		if small.chunks != 0 || small.bytes != 0 || big.chunks != 0 || big.bytes != 0 {
			t.Errorf("a fork copied content: %+v (1-byte files), %+v (3 MB files); want no chunk", small, big)
		}
		if small.nodes != big.nodes || big.nodes != 6 {
			t.Errorf("a fork copied %d rows of nodes for 1-byte files, %d for 3 MB files; want 6 for both (root, d, d/e, 3 files)", small.nodes, big.nodes)
		}
	})
}

// TestForkIsolated: issue 14.4, with content shared, a change in either workspace is never
// seen in the other: overwrite, append (into a shared, partly filled last chunk), delete,
// rename and copy, from the original and from the fork.
func TestForkIsolated(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		big := strings.Repeat("0123456789", ChunkSize/5) + "tail" // two chunks and a bit
		files := map[string]string{"a.txt": "a", "b.txt": big, "c.txt": "c", "d/e.txt": big + "e"}
		for _, fromFork := range []bool{false, true} {
			t.Run(map[bool]string{false: "ChangeOriginal", true: "ChangeFork"}[fromFork], func(t *testing.T) {
				s := newWorkspace(t, x, Quota{})
				if err := s.Mkdir(ctx, "d"); err != nil {
					t.Fatal(err)
				}
				for name, data := range files {
					writeString(t, s, name, data, store.WriteOptions{})
				}
				dst := s.ID() + "-fork"
				t.Cleanup(func() { x.Remove(ctx, dst) })
				if err := x.Fork(ctx, s.ID(), dst); err != nil {
					t.Fatal(err)
				}
				f, err := x.Workspace(ctx, dst, nil)
				if err != nil {
					t.Fatal(err)
				}
				changed, kept := s, f
				if fromFork {
					changed, kept = f, s
				}
				writeString(t, changed, "a.txt", "new", store.WriteOptions{})
				writeString(t, changed, "b.txt", "+more", store.WriteOptions{Mode: store.Append})
				if err := changed.Remove(ctx, "c.txt"); err != nil {
					t.Fatal(err)
				}
				if err := changed.Rename(ctx, "d/e.txt", "moved.txt"); err != nil {
					t.Fatal(err)
				}
				writeString(t, changed, "moved.txt", "!", store.WriteOptions{Mode: store.Append})
				for name, want := range files {
					if got := readAll(t, kept, name); got != want {
						t.Errorf("%s of the unchanged workspace holds %d bytes (%.10q...), want %d", name, len(got), got, len(want))
					}
				}
				if got := readAll(t, changed, "b.txt"); got != big+"+more" {
					t.Errorf("appended b.txt holds %d bytes, want %d", len(got), len(big)+5)
				}
				if got := readAll(t, changed, "moved.txt"); got != big+"e!" {
					t.Errorf("moved.txt holds %d bytes, want %d", len(got), len(big)+2)
				}
				// The unchanged side can change its shared files too, and still not the other.
				writeString(t, kept, "b.txt", "x", store.WriteOptions{Mode: store.Append})
				if got := readAll(t, changed, "b.txt"); got != big+"+more" {
					t.Errorf("b.txt changed by the other workspace's append: %d bytes", len(got))
				}
			})
		}
	})
}

// TestForkContentFreed: issue 14.5, shared content is deleted only when no file of any
// workspace refers to it: removing the original keeps everything the fork holds; removing
// or replacing the fork's files then frees it all. A copy within a workspace shares the
// same way, and the history's content survives pruning the original's journal.
func TestForkContentFreed(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		data := strings.Repeat("z", 2*ChunkSize+1)
		id := testID(t)
		t.Cleanup(func() { x.Remove(ctx, id) })
		s, err := x.Workspace(ctx, id, &Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		j := s.Journal()
		err = j.Apply(ctx, "t", func(tx store.JournalTx) error {
			c := &store.Change{Op: "write", Path: "j.txt", Before: store.Version{Kind: store.Absent}, After: store.FileVersion([]byte("journaled"))}
			if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte("journaled")}); err != nil {
				return err
			}
			_, err := tx.WriteFile(ctx, "j.txt", strings.NewReader("journaled"), store.WriteOptions{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		// On SQLite a journaled write keeps small content once, with the journal's (see
		// writeKept): j.txt has no chunks.
		jc := int64(1)
		if b.name == "SQLite" {
			jc = 0
		}
		writeString(t, s, "a.txt", data, store.WriteOptions{})
		if err := s.Copy(ctx, "a.txt", "copy.txt"); err != nil {
			t.Fatal(err)
		}
		if _, c, _ := contentOf(t, x, s.ws); c != 3+jc {
			t.Fatalf("a.txt, its copy and j.txt take %d chunks, want %d (the copy shares a.txt's 3)", c, 3+jc)
		}
		var blobs []int64
		rows, err := x.db.QueryContext(ctx, x.d.rebind(`SELECT blob FROM llmfs_nodes WHERE ws = ? AND blob <> 0`), s.ws)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var b int64
			rows.Scan(&b)
			blobs = append(blobs, b)
		}
		rows.Close()
		left := func() int64 { // chunks left of the original's content
			in := "?" + strings.Repeat(", ?", len(blobs)-1)
			args := make([]any, len(blobs))
			for i, b := range blobs {
				args[i] = b
			}
			var n int64
			if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COUNT(*) FROM llmfs_chunks WHERE blob IN (`+in+`)`), args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		dst := s.ID() + "-fork"
		t.Cleanup(func() { x.Remove(ctx, dst) })
		if err := x.Fork(ctx, s.ID(), dst); err != nil {
			t.Fatal(err)
		}
		f, err := x.Workspace(ctx, dst, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := j.Prune(ctx, store.Retention{MaxBytes: 1}); err != nil || n != 1 {
			t.Fatalf("Prune of the original's journal = %d, %v; want its one change", n, err)
		}
		if b, err := f.Journal().Blob(ctx, store.Hash([]byte("journaled"))); err != nil || string(b) != "journaled" {
			t.Errorf("the fork's history lost its content when the original's was pruned: %q, %v", b, err)
		}
		if err := x.Remove(ctx, s.ID()); err != nil {
			t.Fatal(err)
		}
		if n := left(); n != 3+jc {
			t.Errorf("%d chunks left after removing the original, want all %d (the fork refers to them)", n, 3+jc)
		}
		if readAll(t, f, "a.txt") != data || readAll(t, f, "copy.txt") != data || readAll(t, f, "j.txt") != "journaled" {
			t.Fatal("the fork lost content when the original was removed")
		}
		if err := f.Remove(ctx, "a.txt"); err != nil {
			t.Fatal(err)
		}
		if n := left(); n != 3+jc {
			t.Errorf("%d chunks left after removing a.txt, want %d (copy.txt shares its content)", n, 3+jc)
		}
		writeString(t, f, "copy.txt", "other", store.WriteOptions{})
		// j.txt's content is the fork's alone now: an append extends it in place.
		writeString(t, f, "j.txt", "more", store.WriteOptions{Mode: store.Append})
		if readAll(t, f, "j.txt") != "journaledmore" {
			t.Error("j.txt lost its content")
		}
		if n := left(); n != jc {
			t.Errorf("%d chunks of the original's content left, want j.txt's %d", n, jc)
		}
		writeString(t, f, "j.txt", "replaced", store.WriteOptions{})
		if n := left(); n != 0 {
			t.Errorf("%d chunks of the original's content left, referred to by no file; want 0", n)
		}
	})
}

// BenchmarkFork: issue 14.4, the time of a fork does not grow with the workspace's size
// in bytes (8 files of 4 KiB, then of 4 MiB: 32 KiB or 32 MiB), only with its files.
//
//	go test ./store/sql -run '^$' -bench Fork -benchtime 20x
func BenchmarkFork(b *testing.B) {
	for _, be := range backends(b) {
		for _, size := range []int{4 << 10, 4 << 20} {
			label := fmt.Sprintf("%dKiB", 8*size>>10)
			if size >= 1<<20 {
				label = fmt.Sprintf("%dMiB", 8*size>>20)
			}
			b.Run(be.name+"/"+label, func(b *testing.B) {
				x := be.connect(b)
				s := newWorkspace(b, x, Quota{})
				for i := range 8 {
					writeString(b, s, fmt.Sprintf("f%d.txt", i), strings.Repeat(string(rune('a'+i)), size), store.WriteOptions{})
				}
				_, _, before := contentOf(b, x, s.ws)
				var forks []int64
				for b.Loop() {
					dst := fmt.Sprintf("%s-fork%d", s.ID(), len(forks))
					if err := x.Fork(ctx, s.ID(), dst); err != nil {
						b.Fatal(err)
					}
					f, err := x.Workspace(ctx, dst, nil)
					if err != nil {
						b.Fatal(err)
					}
					forks = append(forks, f.ws)
					b.Cleanup(func() { x.Remove(ctx, dst) })
				}
				_, _, after := contentOf(b, x, append(forks, s.ws)...)
				b.ReportMetric(float64(after-before)/float64(len(forks)), "content-bytes-copied/op")
			})
		}
	}
}
