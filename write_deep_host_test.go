//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
)

// BenchmarkDeepWrite writes a new file depth directories deep, on a host directory (with
// its journal) and in memory (issue 31, item 7). Each iteration writes into a fresh
// root, so every directory is made anew.
func BenchmarkDeepWrite(b *testing.B) {
	ctx := context.Background()
	for _, depth := range []int{1000, 2000, 4000} {
		b.Run(fmt.Sprintf("osdir/%d", depth), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				w, err := host.Open(&llmfs.Options{Root: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := w.Write(ctx, deepPath(depth), "x", llmfs.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				closeStore(w)
				b.StartTimer()
			}
		})
		b.Run(fmt.Sprintf("mem/%d", depth), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				w := llmfs.New(mem.New(), nil)
				if _, err := w.Write(ctx, deepPath(depth), "x", llmfs.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
