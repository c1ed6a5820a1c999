//go:build !js && !wasip1

package sqlstore

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// Issue 18.6: an import wrote one transaction per file (500 files/s on SQLite). A Batch
// writes many in one transaction: all of them land, with exact usage and hashes that
// appends continue from, or none of them.
func TestBatchImportOneTransaction(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		writeString(t, s, "old.txt", "old", store.WriteOptions{})
		big := strings.Repeat("0123456789abcdef", 2*ChunkSize/16+100) // three chunks
		err := s.Batch(ctx, func(bt *Batch) error {
			for _, d := range []string{"a", "a/b", "a"} { // "a" again: an existing directory is fine
				if err := bt.Mkdir(d); err != nil {
					return err
				}
			}
			for name, content := range map[string]string{
				"a/b/one.txt": "one\n", "a/empty": "", "a/big": big, "a/edge": strings.Repeat("x", ChunkSize),
				"old.txt": "replaced",
			} {
				if n, err := bt.WriteFile(name, strings.NewReader(content)); err != nil || n != int64(len(content)) {
					return fmt.Errorf("WriteFile(%s) = %d, %v", name, n, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]string{"a/b/one.txt": "one\n", "a/empty": "", "a/big": big, "old.txt": "replaced"} {
			if got := readAll(t, s, name); got != want {
				t.Errorf("%s holds %d bytes, want %d", name, len(got), len(want))
			}
			fi, err := s.Stat(ctx, name)
			if err != nil || fi.Size() != int64(len(want)) {
				t.Errorf("Stat(%s) = %v, %v", name, fi, err)
			}
		}
		// The hash state lets an append continue: the file's hash stays the content's.
		writeString(t, s, "a/big", "tail", store.WriteOptions{Mode: store.Append})
		n, err := s.get(s.read(ctx), "a/big", "")
		if err != nil || n.hash != store.Hash([]byte(big+"tail")) {
			t.Errorf("hash after append = %v, %v; want the content's", n, err)
		}
		if u := checkUsage(t, s); u.Files != 7 {
			t.Errorf("usage %+v, want 7 entries", u)
		}

		// A failure part way leaves nothing of the batch.
		boom := errors.New("boom")
		err = s.Batch(ctx, func(bt *Batch) error {
			if err := bt.Mkdir("gone"); err != nil {
				return err
			}
			if _, err := bt.WriteFile("gone/f", strings.NewReader("x")); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Batch = %v, want boom", err)
		}
		if _, err := s.Stat(ctx, "gone"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat(gone) after a failed batch = %v, want not exist", err)
		}
		checkUsage(t, s)
	})
}

// Issue 18.6: the batch's quota is checked once at the end, against all it added.
func TestBatchImportQuota(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{MaxBytes: 10})
		err := s.Batch(ctx, func(bt *Batch) error {
			for i := range 3 {
				if _, err := bt.WriteFile(fmt.Sprintf("f%d", i), strings.NewReader("1234")); err != nil {
					return err
				}
			}
			return nil
		})
		if !errors.Is(err, store.ErrQuota) {
			t.Fatalf("Batch over the quota = %v, want ErrQuota", err)
		}
		if u := checkUsage(t, s); u.Files != 0 {
			t.Errorf("usage after a refused batch: %+v", u)
		}
	})
}

// Bad names and parents: coded errors, nothing written.
func TestBatchImportBadInput(t *testing.T) {
	s := newWorkspace(t, connectSQLite(t), Quota{})
	writeString(t, s, "file", "x", store.WriteOptions{})
	for name, want := range map[string]error{
		"../x": store.ErrInvalidName, "nodir/f": fs.ErrNotExist, "file/f": store.ErrNotDir, ".": store.ErrIsDir,
	} {
		err := s.Batch(ctx, func(bt *Batch) error {
			_, err := bt.WriteFile(name, strings.NewReader("y"))
			return err
		})
		if !errors.Is(err, want) {
			t.Errorf("WriteFile(%q) = %v, want %v", name, err, want)
		}
	}
	err := s.Batch(ctx, func(bt *Batch) error { return bt.Mkdir("file") })
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("Mkdir over a file = %v, want ErrExist", err)
	}
	if u := checkUsage(t, s); u.Files != 1 {
		t.Errorf("usage %+v, want the one file", u)
	}
}

// BenchmarkImport writes 1,000 new files of 4 KiB into a workspace per op, one transaction
// per file (WriteFile) or in one [Batch], and reports files per second (issue 18.6).
//
//	go test -run '^$' -bench Import -benchtime 5x ./store/sql
func BenchmarkImport(b *testing.B) {
	const files = 1000
	content := strings.Repeat(strings.Repeat("x", 49)+"\n", 80)
	for _, bk := range backends(b) {
		for _, mode := range []string{"WriteFile", "Batch"} {
			b.Run(bk.name+"/"+mode, func(b *testing.B) {
				x := bk.connect(b)
				round := 0
				for b.Loop() {
					s := newWorkspace(b, x, Quota{})
					dir := fmt.Sprintf("r%d", round)
					round++
					write := func(name string) error {
						_, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{})
						return err
					}
					var err error
					if mode == "WriteFile" {
						err = s.Mkdir(ctx, dir)
						for i := 0; i < files && err == nil; i++ {
							err = write(fmt.Sprintf("%s/f%04d", dir, i))
						}
					} else {
						err = s.Batch(ctx, func(bt *Batch) error {
							if err := bt.Mkdir(dir); err != nil {
								return err
							}
							for i := range files {
								if _, err := bt.WriteFile(fmt.Sprintf("%s/f%04d", dir, i), strings.NewReader(content)); err != nil {
									return err
								}
							}
							return nil
						})
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(files*b.N)/b.Elapsed().Seconds(), "files/s")
			})
		}
	}
}

// A bulk load may hash its files away from the writer (SumOf, WriteFileSum): the rows are
// as WriteFile makes them, hash state included, and a sum of another size is refused.
func TestBatchWriteFileSum(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		big := strings.Repeat("0123456789abcdef", 2*ChunkSize/16+100) // three chunks
		contents := map[string]string{"one.txt": "one\n", "empty": "", "big": big, "edge": strings.Repeat("x", ChunkSize)}
		err := s.Batch(ctx, func(bt *Batch) error {
			for name, content := range contents {
				sum, err := SumOf([]byte(content))
				if err != nil {
					return err
				}
				if n, err := bt.WriteFileSum(name, strings.NewReader(content), sum); err != nil || n != int64(len(content)) {
					return fmt.Errorf("WriteFileSum(%s) = %d, %v", name, n, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range contents {
			if got := readAll(t, s, name); got != want {
				t.Errorf("%s holds %d bytes, want %d", name, len(got), len(want))
			}
			n, err := s.get(s.read(ctx), name, "")
			if err != nil || n.hash != store.Hash([]byte(want)) {
				t.Errorf("%s: hash %v, %v; want the content's", name, n, err)
			}
		}
		writeString(t, s, "big", "tail", store.WriteOptions{Mode: store.Append})
		if n, err := s.get(s.read(ctx), "big", ""); err != nil || n.hash != store.Hash([]byte(big+"tail")) {
			t.Errorf("hash after append = %v, %v; want the content's", n, err)
		}
		for _, content := range []string{"longer than its sum", big} {
			sum, _ := SumOf([]byte("short"))
			err := s.Batch(ctx, func(bt *Batch) error {
				_, err := bt.WriteFileSum("bad", strings.NewReader(content), sum)
				return err
			})
			if err == nil {
				t.Errorf("WriteFileSum of %d bytes with the sum of 5: no error", len(content))
			}
		}
		if _, err := s.Stat(ctx, "bad"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat(bad) after refused batches = %v", err)
		}
		checkUsage(t, s)
	})
}
