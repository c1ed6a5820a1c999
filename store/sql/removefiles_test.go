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

// TestRemoveFiles: RemoveFiles removes many files in one call as Remove would one by one:
// the files go, the usage falls by their bytes and count, content another file shares
// stays readable, a missing name is skipped, and a directory among the names refuses the
// whole call, nothing removed.
func TestRemoveFiles(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		if err := s.Mkdir(ctx, "d"); err != nil {
			t.Fatal(err)
		}
		var names []string
		for i := range 300 { // more than one batch
			name := fmt.Sprintf("d/f%03d", i)
			names = append(names, name)
			if _, err := s.WriteFile(ctx, name, strings.NewReader(fmt.Sprintf("file %d\n", i)), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		// The same content as d/f007, in a file that stays.
		if _, err := s.WriteFile(ctx, "keep", strings.NewReader("file 7\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		_, before, err := s.Quota(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RemoveFiles(ctx, []string{"d/f001", "d"}); !errors.Is(err, store.ErrIsDir) {
			t.Fatalf("RemoveFiles with a directory: %v", err)
		}
		if _, err := s.Stat(ctx, "d/f001"); err != nil {
			t.Fatalf("the refused call removed d/f001: %v", err)
		}
		if err := s.RemoveFiles(ctx, append(names, "missing", "d/f002")); err != nil {
			t.Fatal(err)
		}
		es, err := s.ReadDir(ctx, "d")
		if err != nil || len(es) != 0 {
			t.Fatalf("d after RemoveFiles: %d entries, %v", len(es), err)
		}
		if _, err := s.Stat(ctx, "d/f100"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("d/f100 after RemoveFiles: %v", err)
		}
		if got := readAll(t, s, "keep"); got != "file 7\n" {
			t.Errorf("keep, sharing removed content: %q", got)
		}
		_, after, err := s.Quota(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var bytes int64
		for i := range 300 {
			bytes += int64(len(fmt.Sprintf("file %d\n", i)))
		}
		if before.Files-after.Files != 300 || before.Bytes-after.Bytes != bytes {
			t.Errorf("usage from %+v to %+v, want 300 files and %d bytes less", before, after, bytes)
		}
	})
}
