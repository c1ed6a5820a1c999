package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
)

// TestLinesCountsDashedLines: lines whose text starts with "--" or "++" are counted like any
// other (Lines once parsed the unified diff and took them for its file headers).
func TestLinesCountsDashedLines(t *testing.T) {
	w := llmfs.New(mem.New(), nil)
	if _, err := w.Write(bg, "args.txt", "--verbose\nkeep\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(bg, "args.txt", "++counter\nkeep\n---\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := history(t, w, llmfs.HistoryFilter{Limit: 1})
	if a, r := w.History().Lines(bg, cs[0]); a != 2 || r != 1 {
		t.Errorf("Lines = +%d -%d, want +2 -1", a, r)
	}
}
