//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/llmfs/llmfs/store"
)

// journalOf opens a host directory whose journal holds n changes to small text files, made
// in change sets of 100 (so building a long journal stays quick).
func journalOf(tb testing.TB, n int) *llmfs.Workspace {
	tb.Helper()
	w, err := host.Open(&llmfs.Options{Root: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < n; i += 100 {
		err := w.History().Record(bg, "bench", llmfs.ChangeWrite, func(s store.Store) error {
			for k := i; k < min(i+100, n); k++ {
				body := strings.Repeat(fmt.Sprintf("line %d\n", k), 1+k%5)
				if _, err := s.WriteFile(bg, fmt.Sprintf("f%d.txt", k%50), strings.NewReader(body), store.WriteOptions{}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return w
}

// logPage is what llmfs log --limit does: the newest changes, as they are read, and their
// line counts.
func logPage(ctx context.Context, w *llmfs.Workspace, limit int) (int, error) {
	lc := w.History().LineCounter()
	n, lines := 0, 0
	for c, err := range w.History().All(ctx, llmfs.HistoryFilter{Limit: limit}) {
		if err != nil {
			return n, err
		}
		a, r := lc.Lines(ctx, c)
		n, lines = n+1, lines+a+r
	}
	return n, nil
}

// BenchmarkHistoryLog measures a page of the log (50 newest changes with their line
// counts) over journals of 100 and 10,000 changes: issue 40.3 wants it independent of the
// journal's length.
//
//	go test -run '^$' -bench HistoryLog -benchtime 2s .
func BenchmarkHistoryLog(b *testing.B) {
	b.Setenv("LLMFS_CACHE_DIR", b.TempDir())
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("limit50/journal-%d", n), func(b *testing.B) {
			w := journalOf(b, n)
			start := cputime.Self()
			for b.Loop() {
				if got, err := logPage(bg, w, 50); err != nil || got != 50 {
					b.Fatalf("log page = %d, %v", got, err)
				}
			}
			b.ReportMetric(float64(cputime.Self()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
