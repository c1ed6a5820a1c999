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

// Issue 18.4: a grep of a SQLite workspace ran a query per file. ReadDirContent lists a
// directory with its small files' content in one query: the same entries as ReadDir, the
// content of files that fit one chunk while the listing's budget lasts, and nothing for
// the rest (they are opened as usual).
func TestReadDirContentOneQuery(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		if err := s.Mkdir(ctx, "d"); err != nil {
			t.Fatal(err)
		}
		if err := s.Mkdir(ctx, "d/sub"); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		files := listContentBudget/(40<<10) + 8 // of 40 KiB: past the budget part way
		for i := range files {
			c := strings.Repeat(fmt.Sprintf("%02d", i), 20<<10)
			want[fmt.Sprintf("d/f%02d", i)] = c
			writeString(t, s, fmt.Sprintf("d/f%02d", i), c, store.WriteOptions{})
		}
		writeString(t, s, "d/big", strings.Repeat("b", ChunkSize+1), store.WriteOptions{})
		writeString(t, s, "d/empty", "", store.WriteOptions{})

		plain, err := s.ReadDir(ctx, "d")
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.ReadDirContent(ctx, "d")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(plain) {
			t.Fatalf("ReadDirContent: %d entries, ReadDir %d", len(got), len(plain))
		}
		var with, total int
		for i, de := range got {
			if de.Name() != plain[i].Name() || de.IsDir() != plain[i].IsDir() {
				t.Errorf("entry %d: %s, ReadDir has %s", i, de.Name(), plain[i].Name())
			}
			ce, ok := de.(store.ContentEntry)
			if !ok {
				continue
			}
			with++
			total += len(ce.Content())
			if c := string(ce.Content()); c != want["d/"+de.Name()] {
				t.Errorf("%s: content of %d bytes, want %d", de.Name(), len(c), len(want["d/"+de.Name()]))
			}
		}
		if with == 0 || with == files || total > listContentBudget {
			t.Errorf("%d files (%d bytes) came with content; want some, within %d bytes", with, total, listContentBudget)
		}
		for _, name := range []string{"missing", "d/f00"} {
			_, err1 := s.ReadDir(ctx, name)
			_, err2 := s.ReadDirContent(ctx, name)
			if err1 == nil || !errors.Is(err2, errors.Unwrap(err1)) {
				t.Errorf("%s: ReadDirContent error %v, ReadDir's %v", name, err2, err1)
			}
		}
		if des, err := s.ReadDirContent(ctx, "d/sub"); err != nil || len(des) != 0 {
			t.Errorf("empty directory: %v, %v", des, err)
		}
		if _, err := s.ReadDirContent(ctx, "../x"); !errors.Is(err, store.ErrInvalidName) {
			t.Errorf("bad name: %v", err)
		}
		var _ fs.DirEntry = got[0]

		// A journaled write's small content the journal's blobs keep, with no chunk of
		// its own on SQLite (writeKept), comes with the listing too.
		err = s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
			c := &store.Change{Op: "write", Path: "d/sub/j.txt", Before: store.Version{Kind: store.Absent}, After: store.FileVersion([]byte("journaled"))}
			if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte("journaled")}); err != nil {
				return err
			}
			_, err := tx.WriteFile(ctx, "d/sub/j.txt", strings.NewReader("journaled"), store.WriteOptions{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		des, err := s.ReadDirContent(ctx, "d/sub")
		if err != nil || len(des) != 1 {
			t.Fatalf("d/sub: %v, %v", des, err)
		}
		if ce, ok := des[0].(store.ContentEntry); !ok || string(ce.Content()) != "journaled" {
			t.Errorf("journaled j.txt: %T %v, want its content", des[0], des[0])
		}
	})
}
