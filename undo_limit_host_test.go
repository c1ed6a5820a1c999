//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestUndoMaxFileBytes: the size up to which a change can be undone is a setting, and the
// refusal past it names the limit and the setting (issue 31, item 5).
func TestUndoMaxFileBytes(t *testing.T) {
	ctx := context.Background()
	big := strings.Repeat("x", 40) + "\n"
	for _, tc := range []struct {
		limit int64
		undo  bool
	}{{16, false}, {1 << 10, true}, {0, true}} {
		w, err := host.Open(&llmfs.Options{Root: t.TempDir(), UndoMaxFileBytes: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(ctx, "f.txt", big, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(ctx, "f.txt", "small\n", llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		changes, err := w.History().List(ctx, llmfs.HistoryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		last := max(changes[0].ID, changes[1].ID)
		_, err = w.History().Undo(ctx, last)
		switch {
		case tc.undo && err != nil:
			t.Errorf("limit %d: undo = %v", tc.limit, err)
		case !tc.undo && llmfs.CodeOf(err) != llmfs.CodeFileTooLarge:
			t.Errorf("limit %d: undo = %v, want FILE_TOO_LARGE", tc.limit, err)
		case !tc.undo:
			for _, want := range []string{"41 bytes", "up to 16 bytes", "undo_max_file_bytes", "--undo-max-file-bytes"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("limit %d: refusal %q lacks %q", tc.limit, err, want)
				}
			}
		}
		closeStore(w)
	}
	if _, err := host.Open(&llmfs.Options{Root: t.TempDir(), UndoMaxFileBytes: -1}); llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
		t.Errorf("a negative limit: err = %v, want INVALID_ARGUMENT", err)
	}
}
