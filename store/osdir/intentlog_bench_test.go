//go:build !js && !wasip1

package osdir

import (
	"context"
	"fmt"
	"testing"

	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/llmfs/llmfs/store"
)

// BenchmarkJournalFold measures what folding the intent log into the sidecar costs per
// change (issue 14.8: the fold is the part of a host journal's cost kept off the write),
// for batches of small overwrites, each change bringing its before and after content.
// fold-cpu-ns/change is the process's CPU time in the fold alone.
//
//	go test -run '^$' -bench JournalFold ./store/osdir
func BenchmarkJournalFold(b *testing.B) {
	b.Setenv("LLMFS_CACHE_DIR", b.TempDir())
	ctx := context.Background()
	for _, batch := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("batch-%d", batch), func(b *testing.B) {
			s, err := New(b.TempDir(), false)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			s.Journal()
			j := s.journal.j
			if j == nil {
				b.Fatal(s.journal.err)
			}
			var cpu, n, last int64
			i := 0
			prev := store.Version{Kind: store.Absent}
			var prevData []byte
			for b.Loop() {
				for range batch {
					i++
					data := []byte(fmt.Sprintf("line %d\nof a small file\n", i))
					c := &store.Change{Op: "write", Path: "f.txt", Before: prev, After: store.FileVersion(data)}
					var set int64
					r := &intentRecord{Actor: "bench", Changes: []*store.Change{c}, Blobs: [][]byte{prevData, data}}
					if prevData == nil {
						r.Blobs = r.Blobs[1:]
					}
					if last > 0 {
						r.Marks = []mark{{ID: last, State: store.Committed}}
					}
					if _, err := j.intents.add(r, &set); err != nil {
						b.Fatal(err)
					}
					prev, prevData, last = c.After, data, c.ID
				}
				start := cputime.Self()
				if err := j.fold(ctx); err != nil {
					b.Fatal(err)
				}
				cpu += int64(cputime.Self() - start)
				n += int64(batch)
			}
			b.ReportMetric(float64(cpu)/float64(n), "fold-cpu-ns/change")
		})
	}
}
